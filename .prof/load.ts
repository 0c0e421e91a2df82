// scratch: trace a lesson load at 4x; main-thread time by category until every widget is ready
import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
const lesson = process.argv[2] ?? '07-06-tool-calls-in-the-loop';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4485, dist: process.env.DIST ?? 'dist' });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript('window.__name = (f) => f;');
await throttleCpu(page, Number(process.env.RATE ?? 4));
await page.goto('about:blank');
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'blink.user_timing'] });
await page.goto(site.base + '/lessons/' + lesson);
const r = await widgetsReady(page);
const buf = await browser.stopTracing();
console.log('ready', r.allMs.toFixed(0), r.widgets.map((w) => `${w.id} ${w.ms.toFixed(0)}`).join(', '));
const ev = JSON.parse(buf.toString()).traceEvents as any[];
const names = new Map<string, string>();
for (const e of ev) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
const navStart = ev.find((e) => e.name === 'navigationStart' || e.name === 'NavigationStart' || e.name === 'markAsMainFrame')?.ts;
const mains = ev.filter((e) => names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && e.ph === 'X');
const pidCounts = new Map<number, number>(); for (const e of mains) pidCounts.set(e.pid, (pidCounts.get(e.pid) ?? 0) + e.dur);
const pid = [...pidCounts].sort((a, b) => b[1] - a[1])[0][0];
const m = mains.filter((e) => e.pid === pid);
const tasks = m.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
const t0 = Math.min(...tasks.map((e) => e.ts));
let busy = 0; for (const t of tasks) busy += t.dur;
console.log('main busy ms', (busy / 1000).toFixed(0), 'span', ((Math.max(...tasks.map((e) => e.ts + e.dur)) - t0) / 1000).toFixed(0));
const cat = new Map<string, number>();
const leafNames = ['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'MinorGC', 'MajorGC', 'HandlePostMessage', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'ParseAuthorStyleSheet', 'v8.parseOnBackground', 'V8.CompileCode', 'V8.ParseFunction', 'V8.CompileLazy'];
for (const e of m) if (leafNames.includes(e.name)) cat.set(e.name, (cat.get(e.name) ?? 0) + e.dur);
console.log([...cat].sort((a, b) => b[1] - a[1]).map(([n, d]) => `${n} ${(d / 1000).toFixed(0)}`).join(', '));
for (const t of tasks.filter((t) => t.dur > 40000)) {
  const kids = m.filter((c) => c !== t && c.ts >= t.ts && c.ts + c.dur <= t.ts + t.dur && c.dur > 2000 && !['ThreadControllerImpl::RunTask','RunTask'].includes(c.name));
  const by = new Map<string, number>(); for (const c of kids) { const k = c.name + (c.args?.data?.url ? ' ' + String(c.args.data.url).replace(/^.*\//, '') : '') + (c.args?.data?.functionName ? ' ' + c.args.data.functionName : ''); by.set(k, Math.max(by.get(k) ?? 0, c.dur)); }
  console.log(`${((t.ts - t0) / 1000).toFixed(0).padStart(6)} +${(t.dur / 1000).toFixed(0).padStart(4)} ${[...by].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, d]) => `${n} ${(d / 1000).toFixed(0)}`).join(', ')}`);
}
await site.close(); await browser.close();
const big = tasks.filter((t) => t.dur > 300000);
for (const t of big) {
  const kids = m.filter((c) => c !== t && c.ts >= t.ts && c.ts + c.dur <= t.ts + t.dur && (c.name === 'Layout' || c.name === 'UpdateLayoutTree' || c.name === 'FunctionCall'));
  console.log('big task at', ((t.ts - t0) / 1000).toFixed(0));
  for (const c of kids.filter((c) => c.dur > 5000)) console.log('   ', c.name, (c.dur / 1000).toFixed(0), ((c.ts - t.ts) / 1000).toFixed(0), JSON.stringify(c.args?.beginData ?? c.args?.data ?? {}).slice(0, 200));
}
