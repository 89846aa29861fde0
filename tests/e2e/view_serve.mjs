// Drives Debian's chromium headless over `tracekit view --serve` and prints what it
// saw as one JSON object; test_view.py (view-serve) holds the expectations.
//   node view_serve.mjs URL [--shots PREFIX]
//   node view_serve.mjs URL --bench    (bench/view.sh: times to a drawn page, the
//     renderer's peak memory: the overview, then a window at the end in detail)
// The overview page first; then zoomed into the trace's last two chunks, the page
// must go to the server's window of it: its events, and how busy each CPU lane is
// drawn there (pixels); then panned to the start, and zoomed out to all again.
import { chromium } from 'playwright-core';
import fs from 'node:fs';

/* Peak RSS (VmHWM, MB) of the renderer processes of the chromium this node started. */
function rendererMB() {
	const procs = new Map();
	for (const d of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(d))
			continue;
		try {
			const st = fs.readFileSync('/proc/' + d + '/stat', 'utf8');
			const ppid = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
			const cmd = fs.readFileSync('/proc/' + d + '/cmdline', 'utf8');
			procs.set(Number(d), { ppid: ppid, cmd: cmd });
		} catch (e) { /* gone */ }
	}
	const mine = (pid) => {
		for (let p = pid, k = 0; p > 1 && k < 8; p = (procs.get(p) || {}).ppid, k++)
			if (p === process.pid)
				return true;
		return false;
	};
	let mb = 0;
	for (const [pid, p] of procs) {
		if (!p.cmd.includes('--type=renderer') || !mine(pid))
			continue;
		try {
			const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/' + pid + '/status', 'utf8'));
			mb = Math.max(mb, m ? Number(m[1]) / 1024 : 0);
		} catch (e) { /* gone */ }
	}
	return mb;
}

const args = process.argv.slice(2);
const url = args[0];
const shots = args.includes('--shots') ? args[args.indexOf('--shots') + 1] : null;
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
		'--disable-component-update', '--no-first-run', '--disable-sync'],
});
const out = { dialogs: [], errors: [], requests: [], pages: [] };
try {
	const page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
	page.on('dialog', (d) => { out.dialogs.push(d.message()); d.dismiss(); });
	page.on('pageerror', (e) => out.errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') out.errors.push(m.text()); });
	page.on('request', (r) => out.requests.push(r.url()));
	const ready = () => page.waitForFunction(() => document.body &&
		document.body.dataset.ready === '1' && window.tracekitView, null, { timeout: 60000 });
	const state = () => page.evaluate(() => {
		const v = window.tracekitView, d = v.data, [a, b] = v.view();
		const c = document.getElementById('timeline'), g = c.getContext('2d');
		const dpr = c.width / c.clientWidth, L = v.geometry;
		const x0 = Math.ceil(L.labelW * dpr), busy = {};
		v.lanes.forEach((lane, li) => {
			if (lane.kind !== 'cpu')
				return;
			const y0 = Math.ceil((v.laneY(li) + L.bandTop) * dpr);
			const y1 = Math.floor((v.laneY(li) + L.bandTop + L.bandH) * dpr);
			const px = g.getImageData(x0, y0, c.width - x0, y1 - y0).data;
			let painted = 0;
			for (let p = 0; p < px.length; p += 4)
				painted += px[p + 3] === 0 || (px[p] === 251 && px[p + 1] === 251 &&
					px[p + 2] === 251) ? 0 : 1;
			busy[lane.label] = painted / (px.length / 4);
		});
		return { path: location.pathname, served: v.served, view: [a, b], t0: d.t0, end: d.end,
			total: d.total, kept: d.kept, events: d.events, lod: !!d.lod, busy: busy,
			notice: document.getElementById('notice').textContent };
	});
	const t = Date.now();
	await page.goto(url);
	await ready();
	out.load_ms = Date.now() - t;
	if (args.includes('--bench')) {
		out.overview_mb = rendererMB();
		const t1 = Date.now();
		await Promise.all([page.waitForNavigation({ timeout: 120000 }), page.evaluate(() => {
			const v = window.tracekitView, S = v.served.starts;
			v.setView(S[Math.max(S.length - 2, 0)], v.data.end);
		})]);
		await page.waitForFunction(() => document.body && document.body.dataset.ready === '1',
			null, { timeout: 120000 });
		out.window_ms = Date.now() - t1;	/* 250 ms of it: the page waits for the view to settle */
		out.window_events = await page.evaluate(() => window.tracekitView.data.kept);
		out.window_mb = rendererMB();
		await browser.close();
		console.log(JSON.stringify(out));
		process.exit(0);
	}
	out.pages.push(await state());
	if (shots)
		await page.screenshot({ path: shots + '-overview.png' });
	// Zoom into the end: the page asks for that window.
	const go = async (fn) => {
		await Promise.all([page.waitForNavigation({ timeout: 60000 }), page.evaluate(fn)]);
		await ready();
		out.pages.push(await state());
	};
	await go(() => {	/* the last two chunks */
		const v = window.tracekitView, S = v.served.starts;
		v.setView(S[Math.max(S.length - 2, 0)], v.data.end);
	});
	if (shots)
		await page.screenshot({ path: shots + '-window.png' });
	await go(() => {	/* the first two */
		const v = window.tracekitView, S = v.served.starts;
		v.setView(0, S[Math.min(2, S.length - 1)]);
	});
	await go(() => {
		const v = window.tracekitView;
		v.setView(0, v.data.end);
	});
} finally {
	await browser.close();
}
await new Promise((done) => process.stdout.write(JSON.stringify(out) + '\n', done));
