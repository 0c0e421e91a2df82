import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
const lesson = process.argv[2] ?? '07-06-tool-calls-in-the-loop';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4489 });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript('window.__name = (f) => f; window.__salJobTiming = true;');
await throttleCpu(page, Number(process.env.RATE ?? 4));
await page.goto(site.base + '/lessons/' + lesson);
const r = await widgetsReady(page);
console.log('ready', r.allMs.toFixed(0), r.widgets.map((w) => `${w.id} ${w.ms.toFixed(0)}`).join(', '));
console.log(await page.evaluate(() => {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
  const res = performance.getEntriesByType('resource').filter((e) => /\.js/.test(e.name)).map((e) => `${e.name.replace(/^.*\//, '').slice(0, 28)} ${e.startTime.toFixed(0)}-${e.responseEnd.toFixed(0)}`);
  const m = performance.getEntriesByType('measure').map((e) => `${e.name} ${e.startTime.toFixed(0)}-${(e.startTime + e.duration).toFixed(0)}`);
  return [`dcl ${nav.domContentLoadedEventEnd.toFixed(0)}`, ...res, ...m].join('\n');
}));
await site.close(); await browser.close();
