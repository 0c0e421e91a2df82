import { launchBrowser, openSite, widgetsReady } from '../bench/browser/site';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4484 });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript('window.__name = (f) => f;');
await page.goto(site.base + '/lessons/' + (process.argv[2] ?? '07-03-cache-aware-routing'));
await widgetsReady(page);
await page.waitForTimeout(1000);
console.log(await page.evaluate(() => {
  const p = document.querySelector('.prose')!;
  const kids = Array.from(p.children);
  return { settled: p.hasAttribute('data-settled'), cv: getComputedStyle(kids[3]).contentVisibility, cis: getComputedStyle(kids[3]).containIntrinsicSize, n: kids.length, h: document.documentElement.scrollHeight };
}));
await site.close(); await browser.close();
