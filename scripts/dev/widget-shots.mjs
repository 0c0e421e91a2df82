// Screenshot every widget of a lesson once it reports ready: node scripts/dev/widget-shots.mjs <url> <outDir> [width]
// COLOR_SCHEME=dark screenshots the dark theme (the lab follows the system's scheme unless the reader chose one).
import { launchChromium } from './chromium.mjs';
const [url, out, width = '1280'] = process.argv.slice(2);
const b = await launchChromium();
const p = await b.newPage({
  viewport: { width: Number(width), height: 900 },
  colorScheme: process.env.COLOR_SCHEME === 'dark' ? 'dark' : 'light',
});
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
  await w.screenshot({
    path: `${out}/${id}-${width}${process.env.COLOR_SCHEME === 'dark' ? '-dark' : ''}.png`,
  });
  console.log(id);
}
await b.close();
