// The flame chart of a function_graph recording on a `tracekit view` page, as Debian's
// chromium drew it (headless): prints one JSON object; test_view.py and the kernel lab's
// ftrace-view case hold the expectations.
//   node view_calls.mjs PAGE.html [--screenshot OUT.png]
// Zoomed to the longest outermost call, for each call a few pixels wide: the colour at
// its middle in its depth's row (and the function's colour the page gives it), what the
// tooltip says when the mouse is there; then, zoomed in, the middle of the widest stretch
// of the outermost call where no callee ran: its colour there and blank one row down.
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const shot = args.includes('--screenshot') ? args[args.indexOf('--screenshot') + 1] : null;
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
		'--disable-component-update', '--no-first-run', '--disable-sync'],
});
const out = { errors: [], requests: [] };

async function px(page, x, y) {
	return page.evaluate(([x, y]) => {
		const c = document.getElementById('timeline'), dpr = c.width / c.clientWidth;
		const p = c.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data;
		/* on the page's white */
		return [0, 1, 2].map((k) => Math.round(p[k] * p[3] / 255 + 255 * (1 - p[3] / 255)));
	}, [x, y]);
}

try {
	const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
	page.on('pageerror', (e) => out.errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') out.errors.push(m.text()); });
	page.on('request', (r) => { if (!r.url().startsWith('file:')) out.requests.push(r.url()); });
	await page.goto('file://' + args[0]);
	await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
	out.lanes = await page.evaluate(() => window.tracekitView.lanes);
	out.legend = await page.evaluate(() => document.getElementById('legend').textContent);
	out.notice = await page.evaluate(() => document.getElementById('notice').textContent);
	// The exits among the events the page kept: each is one call drawn.
	out.exits_listed = await page.evaluate(() => {
		const d = window.tracekitView.data;
		const t = d.types.findIndex((ty) => ty[0] === 'ftrace:funcgraph_exit');
		return d.events.filter((e) => e[3] === t).length;
	});
	const li = out.lanes.findIndex((l) => l.kind === 'calls');
	if (li < 0)
		throw new Error('no calls lane on the page');
	const lane = out.lanes[li];
	// The longest outermost call of the lane's task, and the calls inside it.
	const plan = await page.evaluate(([pid]) => {
		const v = window.tracekitView, fc = v.data.fgCalls[pid], calls = [];
		for (let i = 0; i + 4 < fc.length; i += 5)
			calls.push({ start: fc[i], end: fc[i + 1], depth: fc[i + 2],
				fn: v.data.fgFuncs[fc[i + 3]], colour: v.fnColour(fc[i + 3]), ns: fc[i + 4] });
		const top = calls.filter((c) => c.depth === Math.min(...calls.map((c) => c.depth)))
			.sort((a, b) => (b.end - b.start) - (a.end - a.start))[0];
		// Drawn inside its parent: each call's slice within the one a level up around it.
		const outside = calls.filter((c) => c.depth > top.depth && c.start >= top.start &&
			c.end <= top.end && !calls.some((p) => p.depth === c.depth - 1 &&
				p.start <= c.start && p.end >= c.end)).length;
		const d = top.end - top.start;
		v.setView(top.start - d * 0.02, top.end + d * 0.02);
		return { top: top, outside: outside,
			inside: calls.filter((c) => c.start >= top.start && c.end <= top.end) };
	}, [lane.pid]);
	out.top = plan.top;
	out.outside_parent = plan.outside;
	const box = await page.locator('#timeline').boundingBox();
	const g = await page.evaluate(() => window.tracekitView.geometry);
	const rowY = (d) => lane.top + g.fgRowTop + d * g.fgRowH + (g.fgRowH - 1) / 2;
	out.calls = [];
	for (const c of plan.inside) {
		const x0 = await page.evaluate((t) => window.tracekitView.xOf(t), c.start);
		const x1 = await page.evaluate((t) => window.tracekitView.xOf(t), c.end);
		if (x1 - x0 < 4)
			continue;
		// The colour in the call's first whole pixel column (its name is written further in).
		const y = rowY(c.depth), rgb = await px(page, Math.ceil(x0) + 1, y);
		const x = Math.round((x0 + x1) / 2);
		await page.mouse.move(box.x + x, box.y + y);
		await page.waitForTimeout(30);
		const tip = await page.locator('#tip').textContent();
		out.calls.push({ fn: c.fn, depth: c.depth, ns: c.ns, width: x1 - x0, drawn: rgb,
			colour: c.colour, tip: tip });
	}
	// Own time: the widest stretch of the top call with no call one level down, zoomed
	// so that it is many pixels wide; its middle column.
	const kids = plan.inside.filter((c) => c.depth === plan.top.depth + 1)
		.sort((p, q) => p.start - q.start);
	let gap = null, at = plan.top.start;
	for (const k of kids.concat([{ start: plan.top.end, end: plan.top.end }])) {
		if (k.start - at > (gap ? gap.b - gap.a : 0))
			gap = { a: at, b: k.start };
		at = Math.max(at, k.end);
	}
	if (gap) {
		const x = await page.evaluate(([a, b]) => {
			const v = window.tracekitView, w = b - a;
			v.setView(a - w / 2, b + w / 2);
			return Math.round(v.xOf((a + b) / 2));
		}, [gap.a, gap.b]);
		out.self_column = { x: x, ns: gap.b - gap.a, top: await px(page, x, rowY(plan.top.depth)),
			below: await px(page, x, rowY(plan.top.depth + 1)) };
	}
	// Below the deepest row: not drawn on (the next lane, or the canvas's end).
	out.rows = lane.rows;
	if (shot) {
		await page.evaluate(([a, b]) => window.tracekitView.setView(a, b),
			[plan.top.start - (plan.top.end - plan.top.start) * 0.02,
				plan.top.end + (plan.top.end - plan.top.start) * 0.02]);
		// The tooltip of the longest call three levels down (the fsync's round trip, say).
		const deep = out.calls.filter((c) => c.depth === plan.top.depth + 3)
			.sort((a, b) => b.ns - a.ns)[0] || out.calls[0];
		const c = plan.inside.find((k) => k.fn === deep.fn && k.depth === deep.depth);
		const x = await page.evaluate((t) => window.tracekitView.xOf(t), (c.start + c.end) / 2);
		await page.mouse.move(box.x + x, box.y + rowY(c.depth));
		await page.screenshot({ path: shot });
	}
} catch (e) {
	out.errors.push(String(e));
}
await browser.close();
console.log(JSON.stringify(out));
