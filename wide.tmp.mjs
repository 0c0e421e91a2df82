import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
for (const p of process.argv.slice(2)) {
await page.goto('http://127.0.0.1:4311' + p);
await page.waitForTimeout(5000);
const r = await page.evaluate(() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const b = el.getBoundingClientRect();
    if (b.right > document.documentElement.clientWidth + 1 && b.width > 0) { const par = el.closest('.katex-display, .katex, p, li, td'); out.push(`${el.tagName}.${el.className?.baseVal ?? el.className} right=${Math.round(b.right)} in ${par?.tagName}.${par?.className} ${getComputedStyle(el).position}`); }
  }
  return [document.documentElement.scrollWidth, out.slice(0, 6)];
});
console.log(p, JSON.stringify(r, null, 1));
}
await browser.close();
