import { launchChromium } from './chromium.mjs';
const [url, out, width = '1280', sel] = process.argv.slice(2);
const b = await launchChromium();
// COLOR_SCHEME=dark for the dark theme (the lab follows the system's scheme unless the reader chose one).
const p = await b.newPage({
  viewport: { width: Number(width), height: 900 },
  colorScheme: process.env.COLOR_SCHEME === 'dark' ? 'dark' : 'light',
});
p.on('console', (m) => m.type() === 'error' && console.log('console error:', m.text()));
await p.goto(url);
await p.waitForTimeout(1500);
if (sel) {
  const el = p.locator(sel).first();
  await el.scrollIntoViewIfNeeded();
  await el.screenshot({ path: out });
} else await p.screenshot({ path: out, fullPage: true });
await b.close();
