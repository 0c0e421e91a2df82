// Screenshot every widget of a lesson once it reports ready: node scripts/dev/widget-shots.mjs <url> <outDir> [width]
import { chromium } from 'playwright-core';
const [url, out, width = '1280'] = process.argv.slice(2);
const b = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const p = await b.newPage({ viewport: { width: Number(width), height: 900 } });
p.on('console', (m) => m.type() === 'error' && console.log('console error:', m.text()));
await p.goto(url);
const widgets = p.locator('[data-widget]');
await widgets.first().waitFor({ timeout: 30000 });
const n = await widgets.count();
for (let i = 0; i < n; i++) {
  const w = widgets.nth(i);
  const id = await w.getAttribute('data-widget');
  await w.scrollIntoViewIfNeeded();
  await p
    .waitForFunction((el) => el.getAttribute('data-state') === 'ready', await w.elementHandle(), {
      timeout: 60000,
    })
    .catch(() => console.log(id, 'not ready'));
  await p.waitForTimeout(300);
  await w.screenshot({ path: `${out}/${id}-${width}.png` });
  console.log(id);
}
await b.close();
