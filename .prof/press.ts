// scratch: trace slider presses on one widget; print a timeline of main-thread and worker slices per press
import { writeFileSync } from 'node:fs';
import { launchBrowser, openSite, widgetsReady } from '../bench/browser/site';
import { benchSlider, sliderRepaint } from '../bench/browser/measure';
const [lesson, widgetId] = [process.argv[2], process.argv[3]];
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4483, dist: process.env.DIST ?? 'dist' });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript('window.__name = (f) => f;');
await page.goto(site.base + '/lessons/' + lesson);
await widgetsReady(page);
await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 30000 }).catch(() => {});
const w = page.locator(`[data-widget="${widgetId}"]`);
const slider = benchSlider(w, widgetId);
await w.scrollIntoViewIfNeeded();
await page.waitForTimeout(500);
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel'] });
const res = [];
for (let i = 0; i < 4; i++) { res.push(await sliderRepaint(w, slider)); await page.waitForTimeout(300); }
const buf = await browser.stopTracing();
writeFileSync('.prof/press.json', buf);
console.log(res.map((r) => r.completeMs.toFixed(0)).join(' '));
const ev = JSON.parse(buf.toString()).traceEvents as any[];
const names = new Map<string, string>();
for (const e of ev) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
const thr = (e: any) => names.get(`${e.pid}:${e.tid}`) ?? '?';
const keys = ev.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown' && thr(e) === 'CrRendererMain');
for (const k of keys.slice(0, 4)) {
  const t0 = k.ts;
  const win = ev.filter((e) => e.ph === 'X' && e.ts >= t0 - 1000 && e.ts < t0 + 120000 && e.dur > 500 && /CrRendererMain|Worker/.test(thr(e)) && ['RunTask', 'ThreadControllerImpl::RunTask'].includes(e.name));
  console.log('--- keydown at', (t0 / 1000).toFixed(1));
  for (const e of win.sort((a, b) => a.ts - b.ts)) {
    const kids = ev.filter((c) => c.ph === 'X' && c.tid === e.tid && c.pid === e.pid && c.ts >= e.ts && c.ts + c.dur <= e.ts + e.dur && c !== e && c.dur > 300);
    const by = new Map<string, number>(); for (const c of kids) by.set(c.name + (c.args?.data?.type ? ':' + c.args.data.type : ''), (by.get(c.name) ?? 0) + c.dur);
    console.log(`${((e.ts - t0) / 1000).toFixed(1).padStart(6)} +${(e.dur / 1000).toFixed(1).padStart(5)} ${thr(e).padEnd(16)} ${[...by].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(', ')}`);
  }
}
await site.close(); await browser.close();
