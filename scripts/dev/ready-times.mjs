// Time until each widget on a page reports data-state="ready": `node scripts/dev/ready-times.mjs <url>`.
import { launchChromium } from './chromium.mjs';
const [url] = process.argv.slice(2);
const b = await launchChromium();
const p = await b.newPage({ viewport: { width: 1280, height: 900 } });
const t0 = Date.now();
await p.goto(url);
await p.locator('[data-widget]').first().waitFor();
const ids = await p
  .locator('[data-widget]')
  .evaluateAll((els) => els.map((e) => e.getAttribute('data-widget')));
for (const id of ids) {
  await p.locator(`[data-widget="${id}"][data-state="ready"]`).waitFor({ timeout: 120000 });
  console.log(`${id}: ready after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
await b.close();
