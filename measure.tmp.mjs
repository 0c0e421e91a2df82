import { chromium } from '@playwright/test';
const ids = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
for (const id of ids) {
  await page.goto(`http://127.0.0.1:4311/widget/${id}`);
  try { await page.locator(`[data-widget="${id}"][data-state="ready"]`).waitFor({ timeout: 30000 }); } catch { console.log(id, 'not ready'); continue; }
  await page.waitForTimeout(300);
  const m = await page.evaluate((id) => {
    const w = document.querySelector(`[data-widget="${id}"]`);
    const r = (e) => e && e.getBoundingClientRect();
    const pic = w.querySelector('.widget-figure svg, .widget-figure canvas');
    const ro = w.querySelector('.widget-readouts');
    return { pic: pic ? Math.round(r(pic).bottom) : null, ro: ro ? Math.round(r(ro).bottom) : null, total: Math.round(r(w).height) };
  }, id);
  console.log(id.padEnd(28), 'first picture ends', m.pic, 'readouts end', m.ro, 'widget', m.total, Math.max(m.pic ?? 0, m.ro ?? 0) <= 800 ? 'FITS' : 'OVER');
}
await browser.close();
