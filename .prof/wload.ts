import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
const lesson = process.argv[2] ?? '07-06-tool-calls-in-the-loop';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4485 });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript('window.__name = (f) => f; window.__salJobTiming = true;');
await throttleCpu(page, 4);
await page.goto('about:blank');
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'blink.user_timing', 'loading', 'v8'] });
await page.goto(site.base + '/lessons/' + lesson);
const r = await widgetsReady(page);
const ev = JSON.parse((await browser.stopTracing()).toString()).traceEvents as any[];
console.log('ready', r.allMs.toFixed(0));
const names = new Map<string, string>();
for (const e of ev) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
const thr = (e: any) => names.get(`${e.pid}:${e.tid}`) ?? '?';
const mainPid = ev.filter((e) => thr(e) === 'CrRendererMain' && e.name === 'ParseHTML').map((e) => e.pid).pop();
const t0 = ev.filter((e) => e.pid === mainPid && thr(e) === 'CrRendererMain' && e.ph === 'X').reduce((m, e) => Math.min(m, e.ts), Infinity);
const list = ev.filter((e) => e.pid === mainPid && e.ph === 'X' && e.dur > 8000 && /Worker|CrRendererMain/.test(thr(e)) && /RunTask/.test(e.name));
for (const e of list.sort((a, b) => a.ts - b.ts)) {
  const kids = ev.filter((c) => c.tid === e.tid && c.pid === e.pid && c.ph === 'X' && c !== e && c.ts >= e.ts && c.ts + c.dur <= e.ts + e.dur && c.dur > 3000 && !/RunTask/.test(c.name));
  const by = new Map<string, number>(); for (const c of kids) { const k = c.name + (c.args?.data?.url ? ' ' + String(c.args.data.url).replace(/^.*\//, '').slice(0, 24) : '') + (c.args?.fileName ? ' ' + String(c.args.fileName).replace(/^.*\//, '').slice(0, 24) : ''); by.set(k, Math.max(by.get(k) ?? 0, c.dur)); }
  console.log(`${((e.ts - t0) / 1000).toFixed(0).padStart(6)} +${(e.dur / 1000).toFixed(0).padStart(4)} ${thr(e).slice(0, 14).padEnd(14)} ${[...by].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, d]) => `${n} ${(d / 1000).toFixed(0)}`).join(', ')}`);
}
await site.close(); await browser.close();
