// Drives Debian's chromium headless over a `tracekit view` page and prints what it
// saw as one JSON object; test_view.py holds the expectations.
//   node view_browser.mjs PAGE.html [--screenshot OUT.png] [--search TEXT]
//   node view_browser.mjs PAGE.html --busy [--shots PREFIX]
//     --busy: only how busy each CPU lane is drawn, read from the canvas's pixels, at
//     the whole trace and a few zoomed windows (PREFIX-N.png: a screenshot of each)
//   node view_browser.mjs PAGE.html --columns A:B[,A:B...] [--shots PREFIX]
//     --columns: each window [A, B) (ns after the first event) drawn, then per CPU lane
//     and pixel column the painted height of the span band and the colour of its bottom
//     pixel, per task lane the colour of each column; the level-of-detail status shown
//   node view_browser.mjs PAGE.html --bench       (bench/view.sh: load and zoom times)
//   node view_browser.mjs PAGE.html --story [--shots PREFIX]
//     --story: the colours drawn for the command's threads, the tooltips of a runnable
//     and a sleeping span and the wakeup arrow drawn, the event text, search hits drawn,
//     clicks on a task lane and on lane names, adding a lane, the axis, the toolbar
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const page_path = args[0];
const opt = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : null;
};

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
	const t = Date.now();
	await page.goto('file://' + page_path);
	await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
	out.load_ms = Date.now() - t;

	const st = () => page.evaluate(() => {
		const v = window.tracekitView;
		const sum = document.getElementById('summary').dataset;
		return {
			lanes: v.lanes, view: v.view(), selected: v.selected(),
			events: Number(sum.events), kept: Number(sum.kept),
			listed: Number(document.getElementById('count').dataset.n),
			rows: document.querySelectorAll('#list .row').length,
			notice: document.getElementById('notice').textContent,
			details: Array.from(document.querySelectorAll('#fields tr'),
				(tr) => Array.from(tr.children, (td) => td.textContent)),
			scripts: document.querySelectorAll('script').length,
			markup: document.querySelectorAll('b, i, img, svg, iframe').length,
			markers: document.getElementById('markers').textContent,
			range: document.getElementById('range').textContent,
			sched: (document.querySelector('#sched pre') || {}).textContent || null,
			// sysSpans: [start, end, nr, first argument] per syscall
			sys_spans: Object.values(v.data.sysSpans || {}).reduce((n, a) => n + a.length / 4, 0),
		};
	});
	out.initial = await st();

	if (args.includes('--bench')) {
		// Zoom latency: each step redraws synchronously, so its time is the draw's.
		out.zoom_ms = await page.evaluate(() => {
			const v = window.tracekitView, t = [];
			for (let k = 0; k < 12; k++) {
				const a = performance.now();
				v.zoom(k < 8 ? 0.5 : 2, 0.37);
				t.push(performance.now() - a);
			}
			return t;
		});
		await browser.close();
		console.log(JSON.stringify(out));
		process.exit(0);
	}
	if (args.includes('--story')) {
		out.story = await story(page, opt('--shots'));
		await browser.close();
		console.log(JSON.stringify(out));
		process.exit(0);
	}
	if (opt('--columns')) {
		out.columns = await drawnColumns(page, opt('--columns'), opt('--shots'));
		await browser.close();
		/* More than a pipe holds: exit only once it is written. */
		await new Promise((done) => process.stdout.write(JSON.stringify(out) + '\n', done));
		process.exit(0);
	}
	if (args.includes('--busy')) {
		out.busy = await drawnBusy(page, opt('--shots'));
		await browser.close();
		console.log(JSON.stringify(out));
		process.exit(0);
	}

	// Zoom: '+' on the focused timeline halves the view; the wheel zooms in further.
	const box = await page.locator('#timeline').boundingBox();
	await page.locator('#timeline').focus();
	await page.keyboard.press('+');
	out.after_key = (await st()).view;
	await page.mouse.move(box.x + box.width * 0.6, box.y + 40);
	await page.mouse.wheel(0, -300);
	await page.waitForTimeout(100);
	out.after_wheel = (await st()).view;
	// Drag to select a range: the view becomes that range.
	await page.keyboard.press('0');
	const x0 = box.x + 150 + (box.width - 150) * 0.25, x1 = box.x + 150 + (box.width - 150) * 0.5;
	await page.mouse.move(x0, box.y + 40);
	await page.mouse.down();
	await page.mouse.move((x0 + x1) / 2, box.y + 40, { steps: 3 });
	await page.mouse.move(x1, box.y + 40, { steps: 3 });
	await page.mouse.up();
	out.after_drag = (await st()).view;
	// A capped page gives the command for the part in view in detail.
	out.after_drag_cmd = await page.evaluate(() =>
		(document.getElementById('window-cmd') || {}).textContent || null);
	await page.keyboard.press('0');
	out.after_reset = (await st()).view;

	// Search, then click the first listed event: the details panel shows its fields.
	const q = opt('--search');
	if (q) {
		await page.fill('#search', q);
		await page.waitForFunction((n) => document.getElementById('count').dataset.n !== n,
			String(out.initial.listed), { timeout: 10000 }).catch(() => {});
		await page.waitForTimeout(200);
		out.search = await st();
		const row = page.locator('#list .row').first();
		out.search.first_row = (await row.count()) ? await row.textContent() : null;
		if (out.search.first_row) {
			await row.click();
			out.clicked_row = await st();
		}
		await page.fill('#search', '');
		await page.waitForTimeout(300);
	}

	// Click on the timeline at an event's tick: marker A, and that event's details.
	const hit = await page.evaluate(() => {
		const v = window.tracekitView, d = v.data;
		if (!d.events.length)
			return null;
		const i = Math.floor(d.events.length / 2), e = d.events[i];
		v.setView(e[0] - 50000, e[0] + 50000);
		return { i: i, x: v.xOf(e[0]), y: v.laneY(e[1]) + 19, t: e[0] };
	});
	if (hit) {
		await page.mouse.click(box.x + hit.x, box.y + hit.y);
		out.timeline_click = Object.assign(await st(), { wanted: hit.i });
		await page.keyboard.down('Shift');
		await page.mouse.click(box.x + hit.x + 200, box.y + hit.y);
		await page.keyboard.up('Shift');
		out.markers = (await st()).markers;
	}

	// Hover the longest syscall span of the first task lane that has one: the tip names it.
	const sys = await page.evaluate(() => {
		const v = window.tracekitView, d = v.data;
		const lanes = v.lanes;
		for (let li = 0; li < lanes.length; li++) {
			if (lanes[li].kind !== 'task')
				continue;
			const pid = Number(lanes[li].label.split(' ').pop()), sp = (d.sysSpans || {})[pid];
			if (!sp || !sp.length)
				continue;
			let best = 0;
			for (let i = 0; i + 3 < sp.length; i += 4)
				if (sp[i + 1] - sp[i] > sp[best + 1] - sp[best])
					best = i;
			v.setView(sp[best], sp[best + 1]);
			return { x: v.xOf((sp[best] + sp[best + 1]) / 2), y: v.laneY(li) + 19,
				name: d.sysNames[sp[best + 2]] };
		}
		return null;
	});
	if (sys) {
		await page.mouse.move(box.x + sys.x, box.y + sys.y);
		await page.waitForTimeout(100);
		out.sys_hover = { name: sys.name, tip: await page.locator('#tip').textContent() };
	}

	const shot = opt('--screenshot');
	if (shot) {
		await page.keyboard.press('0');
		await page.mouse.move(box.x + box.width * 0.55, box.y + 40);
		await page.waitForTimeout(100);
		await page.screenshot({ path: shot, type: 'png' });
	}
} finally {
	await browser.close();
}
console.log(JSON.stringify(out));

// The fraction of each CPU lane's span band that the canvas has painted, at the
// whole trace and at windows of 1/2, 1/16 and 1/256 of it: pixels that differ from
// the lane's background, over the plot's width times the band's height.
async function drawnBusy(page, shots) {
	const windows = [[0, 1], [0.25, 0.75], [0.4, 0.4 + 1 / 16], [0.5, 0.5 + 1 / 256]];
	const res = [];
	for (let k = 0; k < windows.length; k++) {
		const w = windows[k];
		res.push(await page.evaluate((w) => {
			const v = window.tracekitView, d = v.data, end = Math.max(d.end, 1);
			v.setView(end * w[0], end * w[1]);
			const c = document.getElementById('timeline'), g = c.getContext('2d');
			const dpr = c.width / c.clientWidth, L = v.geometry;
			const x0 = Math.ceil(L.labelW * dpr), x1 = c.width;
			const lanes = [];
			v.lanes.forEach((lane, li) => {
				if (lane.kind !== 'cpu')
					return;
				const y0 = Math.ceil((v.laneY(li) + L.bandTop) * dpr);
				const y1 = Math.floor((v.laneY(li) + L.bandTop + L.bandH) * dpr);
				const px = g.getImageData(x0, y0, x1 - x0, y1 - y0).data;
				let painted = 0;
				for (let p = 0; p < px.length; p += 4) {
					const bg = px[p + 3] === 0 ||
						(px[p] === 251 && px[p + 1] === 251 && px[p + 2] === 251);
					painted += bg ? 0 : 1;
				}
				lanes.push({ label: lane.label, busy: painted / (px.length / 4) });
			});
			return { view: v.view(), t0: d.t0, lanes: lanes };
		}, w));
		if (shots)
			await page.screenshot({ path: shots + '-' + k + '.png', type: 'png' });
	}
	return res;
}

async function drawnColumns(page, spec, shots) {
	const res = [];
	const windows = spec.split(',').map((w) => w.split(':').map(Number));
	for (let k = 0; k < windows.length; k++) {
		res.push(await page.evaluate((w) => {
			const v = window.tracekitView;
			v.setView(w[0], w[1]);
			const c = document.getElementById('timeline'), g = c.getContext('2d');
			const dpr = c.width / c.clientWidth, L = v.geometry;
			const x0 = Math.ceil(L.labelW * dpr), x1 = c.width;
			const hex = (p, i) => '#' + [p[i], p[i + 1], p[i + 2]].map((n) =>
				n.toString(16).padStart(2, '0')).join('');
			const isBg = (p, i) => p[i + 3] === 0 ||
				(p[i] === 251 && p[i + 1] === 251 && p[i + 2] === 251);
			const lanes = [];
			v.lanes.forEach((lane, li) => {
				if (lane.kind !== 'cpu' && lane.kind !== 'task')
					return;
				const top = lane.kind === 'cpu' ? L.bandTop : 3;
				const h = lane.kind === 'cpu' ? L.bandH : 22 - 10;
				const y0 = Math.ceil((v.laneY(li) + top) * dpr);
				const y1 = Math.floor((v.laneY(li) + top + h) * dpr);
				const px = g.getImageData(x0, y0, x1 - x0, y1 - y0).data, wd = x1 - x0;
				const cols = [];
				for (let x = 0; x < wd; x++) {
					let painted = 0, col = null;
					for (let y = 0; y < y1 - y0; y++) {
						const i = (y * wd + x) * 4;
						if (!isBg(px, i)) {
							painted++;
							col = hex(px, i);	/* the bottom one */
						}
					}
					cols.push([painted / (y1 - y0), col]);
				}
				lanes.push({ kind: lane.kind, label: lane.label, cols: cols });
			});
			const st = document.getElementById('lod-status');
			return { view: v.view(), lanes: lanes, lod_bin: st ? Number(st.dataset.bin) || 0 : 0,
				lod_status: st ? st.textContent : null,
				cmd: (document.getElementById('window-cmd') || {}).textContent || null };
		}, windows[k]));
		if (shots)
			await page.screenshot({ path: shots + '-' + k + '.png', type: 'png' });
	}
	return res;
}

async function px(page, x, y) {
	return page.evaluate(([x, y]) => {
	const c = document.getElementById('timeline'), dpr = c.width / c.clientWidth;
	return Array.from(c.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1,
		1).data).reduce((rgb, v, k, p) => k < 3 ? rgb.concat([Math.round(v * p[3] / 255 +
		255 * (1 - p[3] / 255))]) : rgb, []);	/* on the page's white */
	}, [x, y]);
}

async function story(page, shots) {
	const res = {};
	const canvas = page.locator('#timeline');
	const box = await canvas.boundingBox();
	const top0 = box.y;
	const L = await page.evaluate(() => window.tracekitView.geometry.labelW);
	const laneIndex = (pred) => page.evaluate((src) => {
		const f = new Function('l', 'return ' + src);
		return window.tracekitView.lanes.findIndex((l) => f(l));
	}, pred);

	// Colours: each command thread's widest slice on a CPU lane, sampled in its middle.
	res.colours = await page.evaluate(() => {
		const v = window.tracekitView, d = v.data, cs = d.cpuSpans, out = [];
		const mine = v.lanes.filter((l) => l.kind === 'task').map((l) => l.pid);
		for (const pid of mine) {
			let best = -1;
			for (let i = 0; i + 3 < cs.length; i += 4)
				if (cs[i + 3] === pid && (best < 0 || cs[i + 2] - cs[i + 1] > cs[best + 2] - cs[best + 1]))
					best = i;
			if (best >= 0)
				out.push({ pid: pid, cpu: cs[best], a: cs[best + 1], b: cs[best + 2] });
		}
		return out;
	});
	for (const c of res.colours) {
		await page.evaluate(([a, b]) => window.tracekitView.setView(a, b), [c.a, c.b]);
		const li = await laneIndex('l.kind === "cpu" && l.cpu === ' + c.cpu);
		// The band's top row: below it a wide slice carries the task's name.
		const y = await page.evaluate((li) => window.tracekitView.laneY(li) + 3, li);
		c.rgb = await px(page, L + 20, y);
	}

	// A runnable span of a command thread that a wakeup ended... started, then ran.
	const pick = await page.evaluate(() => {
		const v = window.tracekitView, d = v.data;
		const lanes = v.lanes;
		for (let li = 0; li < lanes.length; li++) {
			if (lanes[li].kind !== 'task')
				continue;
			const sp = d.taskSpans[lanes[li].pid] || [];
			let best = null;
			for (let i = 0; i + 7 < sp.length; i += 4) {
				if (sp[i + 2] !== 2 || sp[i + 6] !== 1 || sp[i + 1] - sp[i] < 20000)
					continue;
				// a task's wakeup (a timer's or an interrupt's has a marker, no arrow)
				const woke = d.events.some((e) => e[0] === sp[i] && e[2] !== lanes[li].pid &&
					/^sched:sched_wak(ing|eup|eup_new)$/.test(d.types[e[3]][0]) &&
					(e[4 + d.types[e[3]][1].length] || 'task') === 'task');
				if (woke && (!best || sp[i + 1] - sp[i] > best.b - best.a))
					best = { li: li, a: sp[i], b: sp[i + 1] };
			}
			if (best)
				return best;
		}
		return null;
	});
	if (pick) {
		const w = pick.b - pick.a;
		await page.evaluate(([a, b]) => window.tracekitView.setView(a, b), [pick.a - w, pick.b + w]);
		// The arrow runs from the waker's lane (or the CPU lane of the wakeup) to this one.
		const pos = await page.evaluate(([li, a, b]) => {
			const v = window.tracekitView, d = v.data;
			const w = d.events.find((e) => e[0] === a &&
				/^sched:sched_wak(ing|eup|eup_new)$/.test(d.types[e[3]][0]));
			let src = v.lanes.findIndex((l) => l.kind === 'task' && l.pid === w[2]);
			if (src < 0)
				src = v.lanes.findIndex((l) => l.kind === 'cpu' && l.cpu === w[1]);
			const y = v.laneY(li) + 11, ys = v.laneY(src) + 11;
			return { x: v.xOf((a + b) / 2), xa: v.xOf(a), y: y, ys: ys };
		}, [pick.li, pick.a, pick.b]);
		// Five points down the arrow's path (a lane between may have a slice's dark label
		// under one of them before the arrow is drawn), the darker of the two columns at each.
		const darkest = async () => {
			const out = [];
			for (const f of [0.3, 0.4, 0.5, 0.6, 0.7]) {
				const y = pos.y + (pos.ys - pos.y) * f;
				const p = [await px(page, Math.floor(pos.xa), y),
					await px(page, Math.ceil(pos.xa), y)];
				out.push(p.reduce((m, q) => (q[0] + q[1] + q[2] < m[0] + m[1] + m[2] ? q : m)));
			}
			return out;
		};
		const before = await darkest();
		await page.mouse.move(box.x + pos.x, box.y + pos.y - 5);
		await page.waitForTimeout(100);
		res.runnable = { tip: await page.locator('#tip').textContent(), before: before,
			after: await darkest() };
		if (shots)
			await page.screenshot({ path: shots + '-runnable.png' });
	}
	// The longest sleep of the command's first thread in a futex call: its join.  (Not its
	// longest sleep of all: under a sanitizer on a loaded machine the thread once slept
	// longer outside any recorded call.)
	const sleep = await page.evaluate(() => {
		const v = window.tracekitView, d = v.data, li = v.lanes.findIndex((l) => l.kind === 'task');
		const pid = li >= 0 ? v.lanes[li].pid : -1;
		const sp = li >= 0 ? d.taskSpans[pid] || [] : [];
		const sy = li >= 0 ? (d.sysSpans || {})[pid] || [] : [];
		const inFutex = (a) => {
			for (let j = 0; j + 3 < sy.length; j += 4)
				if (sy[j] <= a + 1 && a + 1 < sy[j + 1])
					return (d.sysNames || {})[sy[j + 2]] === 'futex';
			return false;
		};
		let best = -1;
		for (let i = 0; i + 3 < sp.length; i += 4)
			if (sp[i + 2] === 3 && inFutex(sp[i]) &&
			    (best < 0 || sp[i + 1] - sp[i] > sp[best + 1] - sp[best]))
				best = i;
		if (best < 0)
			return null;
		v.setView(sp[best], sp[best + 1]);
		return { x: v.xOf((sp[best] + sp[best + 1]) / 2), y: v.laneY(li) + 6 };
	});
	if (sleep) {
		await page.mouse.move(box.x + sleep.x, box.y + sleep.y);
		await page.waitForTimeout(100);
		res.sleep_tip = await page.locator('#tip').textContent();
	}
	// The axis: relative times, the absolute one in its tooltip.
	await page.keyboard.press('0');
	await page.locator('#timeline').focus();
	await page.keyboard.press('0');
	await page.mouse.move(box.x + box.width / 2, box.y + 10);
	await page.waitForTimeout(100);
	res.axis_tip = await page.locator('#tip').textContent();

	// Events in trace-cmd's words; search hits marked on the timeline.
	await page.fill('#search', '==>');
	await page.waitForTimeout(400);
	res.switch_row = await page.locator('#list .row').first().textContent();
	await page.fill('#search', 'futex');
	await page.waitForTimeout(600);
	res.futex_listed = Number(await page.locator('#count').getAttribute('data-n'));
	res.hit_pixels = await page.evaluate(() => {
		const c = document.getElementById('timeline');
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let p = 0; p < d.length; p += 4)
			n += d[p] === 236 && d[p + 1] === 201 && d[p + 2] === 75;
		return n;
	});
	if (shots)
		await page.screenshot({ path: shots + '-search.png' });
	const rowWidth = await page.evaluate(() => {
		const r = document.querySelector('#list .row');
		return r ? [r.scrollWidth, r.clientWidth] : null;
	});
	res.row_fits = rowWidth && rowWidth[0] <= rowWidth[1];
	await page.fill('#search', '');
	await page.waitForTimeout(400);
	res.canvas_top_moved = (await canvas.boundingBox()).y !== top0;

	// Click on a task lane at one of its task's events: that event is selected.
	const evClick = await page.evaluate(() => {
		const v = window.tracekitView, d = v.data;
		const li = v.lanes.findIndex((l) => l.kind === 'task');
		const pid = v.lanes[li].pid;
		const idx = d.events.findIndex((e, i) => e[2] === pid && i > d.events.length / 3);
		if (idx < 0)
			return null;
		const t = d.events[idx][0];
		v.setView(t - 20000, t + 20000);
		return { i: idx, x: v.xOf(t), y: v.laneY(li) + 11 };
	});
	if (evClick) {
		await page.mouse.click(box.x + evClick.x, box.y + evClick.y);
		res.task_click = { wanted: evClick.i,
			got: await page.evaluate(() => window.tracekitView.selected()) };
	}
	// Lane names: a click pins the lane on top, its x hides it; the input adds any task.
	const names = async () => (await page.evaluate(() => window.tracekitView.lanes)).map((l) => l.label);
	const lastTask = (await names()).length - 1;
	const label = (await names())[lastTask];
	const yOf = (li) => page.evaluate((li) => window.tracekitView.laneY(li) + 11, li);
	await page.mouse.click(box.x + 30, box.y + await yOf(lastTask));
	res.pinned_first = (await names())[0] === label;
	await page.mouse.click(box.x + L - 8, box.y + await yOf(0));
	res.hidden = !(await names()).includes(label);
	const other = await page.evaluate(() => {
		const v = window.tracekitView, shown = new Set(v.lanes.map((l) => l.pid));
		const t = v.data.tasks.find((t) => !shown.has(t[0]) && v.data.taskSpans[t[0]]);
		return t ? t[1] + ' ' + t[0] : null;
	});
	if (other) {
		await page.fill('#add-lane', other);
		await page.locator('#add-lane').dispatchEvent('change');
		res.added = (await names()).includes(other) ? other : null;
	}
	if (shots)
		await page.screenshot({ path: shots + '-lanes.png' });
	// The toolbar stays one line on a narrow window.
	await page.setViewportSize({ width: 760, height: 720 });
	await page.waitForTimeout(100);
	res.toolbar_h = await page.evaluate(() => document.getElementById('toolbar').offsetHeight);
	return res;
}
