// Drives Debian's chromium headless over a `tracekit view` page of the contention
// program and prints what the page drew as one JSON object; test_view.py
// (view-contention) holds the expectations.
//   node view_contention.mjs PAGE.html [--shots PREFIX]
// Read from the canvas: each task lane's pixels by colour at the whole trace and a
// window; the arrows drawn for a selected task's wakeups; every text the canvas drew
// (fillText, recorded as it is called: lane names, names inside slices, the axis);
// the tooltips of each task lane at the whole trace; the toolbar at 760 px.
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const pagePath = args[0];
const opt = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : null;
};
const shots = opt('--shots');

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
		'--disable-component-update', '--no-first-run', '--disable-sync'],
});
const out = { dialogs: [], errors: [], requests: [] };
try {
	const page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
	page.on('dialog', (d) => { out.dialogs.push(d.message()); d.dismiss(); });
	page.on('pageerror', (e) => out.errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') out.errors.push(m.text()); });
	page.on('request', (r) => { if (!r.url().startsWith('file:')) out.requests.push(r.url()); });
	// Every text the canvas draws, with where and how wide.
	await page.addInitScript(() => {
		window.__texts = [];
		const fill = CanvasRenderingContext2D.prototype.fillText;
		CanvasRenderingContext2D.prototype.fillText = function (text, x, y) {
			window.__texts.push({ text: String(text), x: x, y: y,
				w: this.measureText(String(text)).width });
			return fill.apply(this, arguments);
		};
	});
	await page.goto('file://' + pagePath);
	await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
	const box = await page.locator('#timeline').boundingBox();

	out.geometry = await page.evaluate(() => window.tracekitView.geometry);
	out.end = await page.evaluate(() => window.tracekitView.data.end);
	out.t0 = await page.evaluate(() => window.tracekitView.data.t0);
	out.key = await page.evaluate(() => Array.from(document.querySelectorAll('#causes .sw'),
		(sw) => ({ name: sw.dataset.cause, colour: getComputedStyle(sw).backgroundColor })));

	// Pixels by colour on each task lane's state band, at the whole trace and a window.
	const colours = (w) => page.evaluate((w) => {
		const v = window.tracekitView, end = v.data.end;
		/* timeline.js CAUSES: the states' colours and the causes' */
		const causes = new Set(['#38a169', '#e53e3e', '#cbd5e0', '#ed8936', '#285e61', '#fbd38d',
			'#63b3ed']);
		v.setView(end * w[0], end * w[1]);
		const c = document.getElementById('timeline'), g = c.getContext('2d');
		const dpr = c.width / c.clientWidth, L = v.geometry;
		const x0 = Math.ceil(L.labelW * dpr), x1 = c.width, res = [];
		v.lanes.forEach((lane, li) => {
			if (lane.kind !== 'task')
				return;
			const y0 = Math.ceil((v.laneY(li) + 3) * dpr), y1 = Math.floor((v.laneY(li) + 15) * dpr);
			const wd = x1 - x0, ht = y1 - y0, n = {};
			const px = g.getImageData(x0, y0, wd, ht).data;
			const hex = (p) => '#' + [px[p], px[p + 1], px[p + 2]].map((b) =>
				b.toString(16).padStart(2, '0')).join('');
			/* Per column; a name written in a span (its text's pixels, of no cause's
			 * colour) counts as the span under it: such a column is one span. */
			for (let x = 0; x < wd; x++) {
				const col = {};
				let text = 0, known = 0;
				for (let y = 0; y < ht; y++) {
					const p = (y * wd + x) * 4, k = hex(p);
					const bg = !px[p + 3] || k === '#fbfbfb';
					if (bg)
						continue;
					if (causes.has(k))
						col[k] = (col[k] || 0) + 1, known++;
					else
						text++;
				}
				for (const k in col)
					n[k] = (n[k] || 0) + col[k] * (known ? (known + text) / known : 1);
			}
			res.push({ pid: lane.pid, label: lane.label, total: wd * ht, colours: n });
		});
		return { view: v.view(), lanes: res };
	}, w);
	out.shares = [await colours([0, 1]), await colours([0.25, 0.5])];
	// A pixel column 8 times as long as the median running span of the task that ran
	// most often: its columns mix states (where the majority would draw one).
	out.shares.push(await colours(await page.evaluate(() => {
		const v = window.tracekitView, d = v.data, end = d.end;
		let runs = [];
		for (const l of v.lanes.filter((l) => l.kind === 'task')) {
			const sp = d.taskSpans[l.pid] || [], r = [];
			for (let i = 0; i + 3 < sp.length; i += 4)
				if (sp[i + 2] === 1)
					r.push(sp[i + 1] - sp[i]);
			if (r.length > runs.length)
				runs = r;
		}
		runs.sort((a, b) => a - b);
		const col = 8 * (runs[runs.length >> 1] || 1000), w = col * (v.geometry.plotW || 1040);
		return [0.3, Math.min(0.3 + w / end, 1)];
	})));
	if (shots)
		await page.screenshot({ path: shots + '-shares.png' });

	// The sleeps the test picked, one of each cause: zoomed to, the colour drawn in the
	// middle of each (the band's top rows: a name written on the span stays below them).
	out.probes = JSON.parse(opt('--probes') || '[]');
	for (const p of out.probes) {
		p.drawn = await page.evaluate((p) => {
			const v = window.tracekitView, w = p.b - p.a;
			v.setView(p.a - w / 2, p.b + w / 2);
			const li = v.lanes.findIndex((l) => l.kind === 'task' && l.pid === p.pid);
			if (li < 0)
				return null;
			const c = document.getElementById('timeline'), dpr = c.width / c.clientWidth;
			const x = Math.round(v.xOf((p.a + p.b) / 2) * dpr);
			const px = c.getContext('2d').getImageData(x, Math.round((v.laneY(li) + 4) * dpr),
				1, 1).data;
			return '#' + [px[0], px[1], px[2]].map((b) => b.toString(16).padStart(2, '0')).join('');
		}, p);
	}

	// Hover each task lane at the whole trace, within the task's life (a short-lived
	// task is "not seen" elsewhere): the tip's first line.
	const end = await page.evaluate(() => window.tracekitView.data.end);
	await page.evaluate((e) => window.tracekitView.setView(0, e), end);
	out.hover = [];
	for (const lane of await page.evaluate(() => window.tracekitView.lanes)) {
		if (lane.kind !== 'task' || lane.from === undefined)
			continue;
		for (const f of [0.3, 0.5, 0.7]) {
			const t = lane.from + (lane.to - lane.from) * f;
			await page.mouse.move(box.x + out.geometry.labelW +
				(box.width - out.geometry.labelW) * Math.min(Math.max(t / end, 0), 1),
				box.y + lane.top + 9);
			await page.waitForTimeout(50);
			out.hover.push({ pid: lane.pid, tip: await page.locator('#tip').textContent() });
		}
	}
	await page.mouse.move(box.x + 5, box.y + box.height + 40);

	// Select the task woken most often (the reader) by a click on its lane, in a window
	// of the trace: an arrow for each of its wakeups, where the arrow's middle should be.
	out.wakers = await page.evaluate(() => {
		const v = window.tracekitView, d = v.data, types = d.types.map((t) => t[0]);
		const waking = (e) => /sched_waking|sched_wakeup$/.test(types[e[3]]);
		const end = d.end, woken = new Map();
		for (const e of d.events)
			if (waking(e)) {
				const pid = e[4 + d.types[e[3]][1].indexOf('pid')];
				(woken.get(pid) || woken.set(pid, []).get(pid)).push(e[0]);
			}
		const lanes = v.lanes.filter((l) => l.kind === 'task');
		const n = (l) => (woken.get(l.pid) || []).length;
		lanes.sort((p, q) => n(q) - n(p));
		// The shortest stretch of the trace with 8 of its wakeups (or all it has).
		const ts = woken.get(lanes[0].pid) || [0], k = Math.min(8, ts.length) - 1;
		let from = ts[0], to = ts[k];
		for (let i = k; i < ts.length; i++)
			if (ts[i] - ts[i - k] < to - from)
				from = ts[i - k], to = ts[i];
		const w = Math.max(to - from, 1e5);
		v.setView(from - w / 10, from + w * 1.1);
		return { pid: lanes[0].pid, view: v.view() };
	});
	const li = await page.evaluate((pid) => window.tracekitView.lanes.findIndex((l) =>
		l.kind === 'task' && l.pid === pid), out.wakers.pid);
	// A click between two events of the task (not on an event: that selects it as well).
	const clickX = await page.evaluate((pid) => window.tracekitView.xOf(
		(window.tracekitView.view()[0] + window.tracekitView.view()[1]) / 2), out.wakers.pid);
	await page.mouse.click(box.x + clickX, box.y + (await page.evaluate((i) =>
		window.tracekitView.laneY(i), li)) + 9);
	await page.mouse.move(box.x + 5, box.y + box.height + 40);
	await page.waitForTimeout(100);
	Object.assign(out.wakers, await page.evaluate((pid) => {
		const v = window.tracekitView, d = v.data, types = d.types.map((t) => t[0]);
		const [a, b] = v.view(), sp = d.taskSpans[pid], evs = d.events;
		const li = v.lanes.findIndex((l) => l.kind === 'task' && l.pid === pid);
		const c = document.getElementById('timeline'), g = c.getContext('2d');
		const dpr = c.width / c.clientWidth;
		const dark = (x, y) => {
			let best = 765;
			for (let dx = -1; dx <= 1; dx++) {
				const p = g.getImageData(Math.round((x + dx) * dpr), Math.round(y * dpr), 1, 1).data;
				best = Math.min(best, p[3] ? p[0] + p[1] + p[2] : 765);
			}
			return best;
		};
		// Each runnable span in view that a wakeup of this task began (one per column).
		const wakeups = [];
		let lastCol = null;
		for (let i = 0; i + 3 < sp.length; i += 4) {
			if (sp[i + 2] !== 2 || sp[i] < a || sp[i] > b)
				continue;
			const e = evs.find((e) => e[0] === sp[i] &&
				/^sched:sched_wak(ing|eup|eup_new)$/.test(types[e[3]]) &&
				e[4 + d.types[e[3]][1].indexOf('pid')] === pid);
			if (!e)
				continue;
			const x = v.xOf(sp[i]), col = Math.floor(x);
			if (col === lastCol)
				continue;
			lastCol = col;
			let src = v.lanes.findIndex((l) => l.kind === 'task' && l.pid === e[2]);
			if (src < 0)
				src = v.lanes.findIndex((l) => l.kind === 'cpu' && l.cpu === e[1]);
			const ym = (v.laneY(li) + v.laneY(src)) / 2 + 11;
			const mark = window.__texts.find((m) => /^[THSI]$/.test(m.text) &&
				Math.abs(m.x - x) < 1.5);
			wakeups.push({ t: sp[i], waker: e[2], kind: e[4 + d.types[e[3]][1].length] || 'task',
				dark: dark(x, ym), mark: mark ? mark.text : null });
		}
		const w = document.getElementById('wakers') || { textContent: null, dataset: {} };
		return { wakeups: wakeups, selected: v.selectedTask ? v.selectedTask() : null,
			text: w.textContent, n: Number(w.dataset.n) };
	}, out.wakers.pid));
	if (shots)
		await page.screenshot({ path: shots + '-wakers.png' });
	await page.keyboard.press('Escape');

	// Texts drawn: lane names, names in CPU slices (a window where slices are tens of
	// pixels wide), the axis at the whole trace and at windows down to 20 us.
	const texts = async (w) => page.evaluate((w) => {
		const v = window.tracekitView, end = v.data.end;
		window.__texts = [];
		v.setView(w[0] * end, w[0] * end + w[1]);
		return { view: v.view(), texts: window.__texts, lanes: v.lanes };
	}, w);
	out.texts = [];
	for (const w of [[0, out.end], [0.6, 20e6], [0.6, 2e6], [0.6, 20e3]])
		out.texts.push(await texts(w));
	// A slice of the program about a tenth of the plot wide: room for a part of its name.
	const slice = await page.evaluate(() => {
		const d = window.tracekitView.data, cs = d.cpuSpans, names = new Map(d.tasks);
		let best = -1;
		for (let i = 0; i + 3 < cs.length; i += 4)
			if (/^WWW/.test(names.get(cs[i + 3]) || '') &&
				(best < 0 || cs[i + 2] - cs[i + 1] > cs[best + 2] - cs[best + 1]))
				best = i;
		return best < 0 ? null : [cs[best + 1], cs[best + 2]];
	});
	if (slice) {
		const len = slice[1] - slice[0];
		out.texts.push(await texts([(slice[0] - 5 * len) / out.end, 11 * len]));
	}
	if (shots)
		await page.screenshot({ path: shots + '-labels.png' });

	// The toolbar at 760 px: every control inside it and whole; the range's text whole.
	await page.setViewportSize({ width: 760, height: 720 });
	await page.waitForTimeout(100);
	const toolbar = async () => page.evaluate(() => {
		const tb = document.getElementById('toolbar'), r = tb.getBoundingClientRect();
		const cs = getComputedStyle(tb);
		const right = r.right - parseFloat(cs.paddingRight);
		return { height: tb.offsetHeight, items: Array.from(tb.children).filter((c) =>
			c.tagName !== 'DATALIST').map((c) => {
			const b = c.getBoundingClientRect();
			return { id: c.id || c.textContent, right: b.right, limit: right, width: b.width,
				scroll: c.scrollWidth, client: c.clientWidth, text: c.textContent };
		}) };
	});
	out.toolbar = [await toolbar()];
	await page.evaluate(() => window.tracekitView.setView(window.tracekitView.data.end * 0.6,
		window.tracekitView.data.end * 0.6 + 2000));
	out.toolbar.push(await toolbar());
	if (shots)
		await page.screenshot({ path: shots + '-760.png' });
} finally {
	await browser.close();
}
await new Promise((done) => process.stdout.write(JSON.stringify(out) + '\n', done));
