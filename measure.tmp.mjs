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
    const box = (sel) => { const e = w.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect(); return [Math.round(r.top + scrollY), Math.round(r.bottom + scrollY)]; };
    return { widget: box(':scope > .widget-body') && [Math.round(w.getBoundingClientRect().height)], figure: box('.widget-figure'), readouts: box('.widget-readouts'), controls: box('.widget-controls') };
  }, id);
  const top = Math.min(...[m.figure, m.readouts].filter(Boolean).map((b) => b[0]));
  const bot = Math.max(...[m.figure, m.readouts].filter(Boolean).map((b) => b[1]));
  console.log(id.padEnd(28), 'widget', m.widget?.[0], 'figure+readouts span', bot - top, 'bottom', bot, m.readouts ? '' : '(no readouts)');
}
await browser.close();
