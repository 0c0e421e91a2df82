// scratch: trace a drag at 4x CPU and list long tasks with their breakdown
import { writeFileSync } from 'node:fs';
import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
import { benchSlider, dragSlider } from '../bench/browser/measure';
const lesson = process.argv[2] ?? 'cache-aware-routing';
const widgetId = process.argv[3];
const rate = Number(process.argv[4] ?? 4);
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4480 });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
await page.addInitScript('window.__name = (f) => f;');
await throttleCpu(page, rate);
await page.goto(site.base + '/lessons/' + lesson);
await widgetsReady(page);
if (process.env.CSS0) { await page.addStyleTag({ content: process.env.CSS0 }); await page.waitForTimeout(300); }
if (process.env.CSS) await page.addStyleTag({ content: process.env.CSS });
await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 30000 }).catch(() => {});
const w = widgetId ? page.locator(`[data-widget="${widgetId}"]`) : page.locator('[data-widget]').filter({ has: page.locator('.widget-controls input[type="range"]') }).first();
console.log('widget', await w.getAttribute('data-widget'));
const slider = benchSlider(w, (await w.getAttribute('data-widget'))!);
await slider.scrollIntoViewIfNeeded();
await page.waitForTimeout(500);
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] , screenshots: false});
const bb = await slider.boundingBox(); console.log('box', bb, await page.evaluate(([x,y]) => { const e = document.elementFromPoint(x,y); return e?.tagName + '.' + e?.className; }, [bb!.x+5, bb!.y+bb!.height/2]));
const before = [await slider.inputValue(), await w.getAttribute('data-drawn')];
await dragSlider(page, slider);
await page.waitForTimeout(800);
const buf = await browser.stopTracing();
console.log('slider/drawn before', before, 'after', [await slider.inputValue(), await w.getAttribute('data-drawn')]);
writeFileSync('.prof/trace.json', buf);
const ev = JSON.parse(buf.toString()).traceEvents as any[];
// main thread: CrRendererMain
const names = new Map<string, number>();
for (const e of ev) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
const main = [...names].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k);
const onMain = ev.filter((e) => main.includes(`${e.pid}:${e.tid}`) && e.ph === 'X');
const all = onMain.filter((e) => e.name === 'RunTask' && e.dur > 16000).map((e) => e.dur / 1000).sort((a, b) => b - a);
console.log('tasks >16ms:', all.length, 'top', all.slice(0, 12).map((x) => x.toFixed(0)).join(' '));
const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur > 30000).sort((a, b) => b.dur - a.dur).slice(0, 6);
for (const t of tasks) {
  const kids = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
  const byName = new Map<string, number>();
  for (const k of kids) byName.set(k.name, (byName.get(k.name) ?? 0) + k.dur);
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`);
  const fc = kids.filter((k) => k.name === 'FunctionCall' || k.name === 'EventDispatch' ).map((k) => `${k.name}:${k.args?.data?.type ?? k.args?.data?.functionName ?? ''}@${(k.dur/1000).toFixed(1)}`).slice(0, 8);
  console.log(`task ${(t.dur / 1000).toFixed(1)} ms: ${top.join(', ')}\n   ${fc.join(' ')}`);
}
await site.close();
await browser.close();
