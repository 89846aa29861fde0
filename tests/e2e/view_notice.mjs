// Drives Debian's chromium headless over a `tracekit view` page and prints the page's
// notice as drawn (its text), as one JSON object; test_view.py holds the expectations.
//   node view_notice.mjs URL
import { chromium } from 'playwright-core';

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
		'--disable-component-update', '--no-first-run', '--disable-sync'],
});
const out = { errors: [] };
try {
	const page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
	page.on('pageerror', (e) => out.errors.push(String(e)));
	await page.goto(process.argv[2]);
	await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
	out.notice = await page.locator('#notice').innerText();
	out.visible = await page.locator('#notice').isVisible();
} finally {
	await browser.close();
}
await new Promise((done) => process.stdout.write(JSON.stringify(out) + '\n', done));
