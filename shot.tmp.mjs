import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
for (const id of process.argv.slice(2)) {
await page.goto(`http://127.0.0.1:4311/widget/${id}`);
await page.locator(`[data-widget="${id}"][data-state="ready"]`).waitFor({ timeout: 30000 });
await page.waitForTimeout(800);
await page.screenshot({ path: `/tmp/w-${id}.png`, fullPage: false });
}
await browser.close();
