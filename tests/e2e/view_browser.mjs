// Drives Debian's chromium headless over a `tracekit view` page and prints what it
// saw as one JSON object; test_view.py holds the expectations.
//   node view_browser.mjs PAGE.html [--screenshot OUT.png] [--search TEXT]
//   node view_browser.mjs PAGE.html --busy [--shots PREFIX]
//     --busy: only how busy each CPU lane is drawn, read from the canvas's pixels, at
//     the whole trace and a few zoomed windows (PREFIX-N.png: a screenshot of each)
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
