// What headless chromium drew for user tracepoints on a `tracekit view` page:
// for the task lane of PID, which pixel columns of its top strip are the user
// tracepoint colour, and whether each of its marks is one of them.
//   node ust_view.mjs PAGE.html PID        (prints one JSON object; test_ust.py checks it)
import { chromium } from 'playwright-core';

const [page_path, pid] = process.argv.slice(2);
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
});
const out = { errors: [] };
try {
	const page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
	page.on('pageerror', (e) => out.errors.push(String(e)));
	await page.goto('file://' + page_path);
	await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
	Object.assign(out, await page.evaluate((pid) => {
		const v = window.tracekitView;
		const lane = v.lanes.findIndex((l) => l.kind === 'task' && l.label.endsWith(' ' + pid));
		const canvas = document.getElementById('timeline');
		const dpr = window.devicePixelRatio || 1;
		const ctx = canvas.getContext('2d');
		const orange = (x, y) => {
			const p = ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data;
			return p[0] === 0xdd && p[1] === 0x6b && p[2] === 0x20;
		};
		const res = { lane, labels: v.lanes.map((l) => l.label), cols: 0, marks: [] };
		if (lane < 0)
			return res;
		const y = v.laneY(lane) + 1;
		for (let x = 0; x < canvas.width / dpr; x++)
			res.cols += orange(x, y) ? 1 : 0;
		const m = v.data.userMarks[pid] || [];
		for (let i = 0; i + 2 < m.length; i += 3)
			res.marks.push(orange(Math.floor(v.xOf(m[i])), y));
		res.legend = document.getElementById('legend').textContent;
		return res;
	}, pid));
} finally {
	await browser.close();
}
console.log(JSON.stringify(out));
