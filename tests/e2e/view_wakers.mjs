// Drives Debian's chromium headless over a `tracekit view` page (a file, or a
// `view --serve` URL) and prints what it drew for one task's wakeups as one JSON
// object; test_view.py (view-wakers-by-kind) holds the expectations.
//   node view_wakers.mjs URL PID A B [--serve]
// A..B (ns from the page's start) is the window looked at; served, the page first
// goes to the server's window of it.  The task's lane is clicked (selected: its
// wakeups drawn); for each of its wakeups in view, read from the canvas: whether an
// arrow's dark line crosses the middle between the waker's lane and its own, and
// whether a marker letter was drawn there (fillText, recorded as it is called);
// then the tooltip of its longest runnable span that a timer began.
import { chromium } from 'playwright-core';

const [url, pidArg, aArg, bArg] = process.argv.slice(2);
const pid = Number(pidArg), A = Number(aArg), B = Number(bArg);
const serve = process.argv.includes('--serve');
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
		'--disable-component-update', '--no-first-run', '--disable-sync'],
});
const out = { dialogs: [], errors: [] };
try {
	const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
	page.on('dialog', (d) => { out.dialogs.push(d.message()); d.dismiss(); });
	page.on('pageerror', (e) => out.errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') out.errors.push(m.text()); });
	await page.addInitScript(() => {
		window.__texts = [];
		const fill = CanvasRenderingContext2D.prototype.fillText;
		CanvasRenderingContext2D.prototype.fillText = function (text, x, y) {
			window.__texts.push({ text: String(text), x: x, y: y });
			return fill.apply(this, arguments);
		};
	});
	const ready = () => page.waitForFunction(() => document.body &&
		document.body.dataset.ready === '1' && window.tracekitView, null, { timeout: 60000 });
	await page.goto(url);
	await ready();
	if (serve) {
		await Promise.all([page.waitForNavigation({ timeout: 60000 }),
			page.evaluate(([a, b]) => window.tracekitView.setView(a, b), [A, B])]);
		await ready();
		out.path = await page.evaluate(() => location.pathname);
	}
	await page.evaluate(([a, b]) => window.tracekitView.setView(a, b), [A, B]);
	const box = await page.locator('#timeline').boundingBox();
	const li = await page.evaluate((pid) => window.tracekitView.lanes.findIndex((l) =>
		l.kind === 'task' && l.pid === pid), pid);
	out.lane = li;
	if (li < 0)
		throw new Error('no lane for ' + pid);
	await page.evaluate(() => { window.__texts = []; });
	// A click on the lane between two events of the task selects it.
	const clickX = await page.evaluate(() => window.tracekitView.xOf(
		(window.tracekitView.view()[0] + window.tracekitView.view()[1]) / 2));
	await page.mouse.click(box.x + clickX, box.y + (await page.evaluate((i) =>
		window.tracekitView.laneY(i), li)) + 9);
	await page.mouse.move(box.x + 5, box.y + box.height + 40);
	await page.waitForTimeout(100);
	Object.assign(out, await page.evaluate(([pid, li]) => {
		const v = window.tracekitView, d = v.data, [a, b] = v.view();
		const sp = d.taskSpans[pid] || [], evs = d.events;
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
		const wakeups = [];
		let lastCol = null;
		for (let i = 0; i + 3 < sp.length; i += 4) {
			if (sp[i + 2] !== 2 || sp[i] < a || sp[i] > b)
				continue;
			const e = evs.find((e) => e[0] === sp[i] &&
				/^sched:sched_wak(ing|eup|eup_new)$/.test(d.types[e[3]][0]) &&
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
			const mark = window.__texts.find((t) => /^[THSI]$/.test(t.text) &&
				Math.abs(t.x - x) < 1.5);
			wakeups.push({ t: sp[i], b: sp[i + 1], waker: e[2],
				kind: e[4 + d.types[e[3]][1].length] || null, src: src,
				dark: src === li ? null : dark(x, ym), mark: mark ? mark.text : null });
		}
		const w = document.getElementById('wakers');
		return { wakeups: wakeups, selected: v.selectedTask(), text: w ? w.textContent : null };
	}, [pid, li]));
	// The tooltip of the longest timer-woken runnable span, zoomed to be wide.
	const timed = out.wakeups.filter((w) => w.kind === 'timer');
	if (timed.length) {
		const s = timed.reduce((m, w) => (w.b - w.t > m.b - m.t ? w : m));
		const d = Math.max(s.b - s.t, 1);
		await page.evaluate(([a, b]) => window.tracekitView.setView(a, b), [s.t - d, s.b + d]);
		const pos = await page.evaluate(([li, a, b]) => ({ x: window.tracekitView.xOf((a + b) / 2),
			y: window.tracekitView.laneY(li) + 9 }), [li, s.t, s.b]);
		await page.mouse.move(box.x + pos.x, box.y + pos.y);
		await page.waitForTimeout(100);
		out.tip = await page.locator('#tip').textContent();
	}
} finally {
	await browser.close();
}
await new Promise((done) => process.stdout.write(JSON.stringify(out) + '\n', done));
