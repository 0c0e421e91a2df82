// scratch: CPU profile of a drag at 4x, self time by function
import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
import { benchSlider, dragSlider } from '../bench/browser/measure';
const lesson = process.argv[2] ?? '07-03-cache-aware-routing';
const widgetId = process.argv[3];
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4482, dist: process.env.DIST ?? '/tmp/dist-nomin' });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
await page.addInitScript('window.__name = (f) => f;');
await throttleCpu(page, 4);
await page.goto(site.base + '/lessons/' + lesson);
await widgetsReady(page);
await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 30000 }).catch(() => {});
const w = widgetId ? page.locator(`[data-widget="${widgetId}"]`) : page.locator('[data-widget]').filter({ has: page.locator('.widget-controls input[type="range"]') }).first();
const slider = benchSlider(w, (await w.getAttribute('data-widget'))!);
await slider.scrollIntoViewIfNeeded();
await page.waitForTimeout(500);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await dragSlider(page, slider);
await page.waitForTimeout(800);
const { profile } = await cdp.send('Profiler.stop') as any;
const self = new Map<number, number>();
const dt = profile.timeDeltas as number[];
profile.samples.forEach((id: number, i: number) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
const byFn = new Map<string, number>();
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const nodes = new Map(profile.nodes.map((n: any) => [n.id, n]));
let total = 0;
for (const n of profile.nodes) {
  const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`;
  const t = self.get(n.id) ?? 0;
  if (f.functionName !== '(idle)' && f.functionName !== '(program)') total += t;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
}
console.log('total busy ms', (total / 1000).toFixed(0));
for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / 1000).toFixed(1).padStart(7), k);
// inclusive time by function
const incl = new Map<string, number>();
const inclOf = (n: any): number => (self.get(n.id) ?? 0) + (n.children ?? []).reduce((s: number, c: number) => s + inclOf(nodes.get(c)), 0);
for (const n of profile.nodes) { const f = n.callFrame; if (!f.url.includes('assets')) continue; const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`; incl.set(key, Math.max(incl.get(key) ?? 0, 0) + inclOf(n)); }
console.log('--- inclusive');
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 50)) console.log((v / 1000).toFixed(1).padStart(7), k);
await site.close(); await browser.close();
// callers of hot natives
for (const target of ['postMessage', 'setAttribute', 'formatNumber', 'scaled', 'requestAnimationFrame']) {
  const callers = new Map<string, number>();
  for (const n of profile.nodes) {
    if (n.callFrame.functionName !== target) continue;
    let p = nodes.get(parent.get(n.id)!) as any; const chain: string[] = [];
    for (let k = 0; k < 4 && p; k++) { chain.push(`${p.callFrame.functionName || 'anon'}:${p.callFrame.url.replace(/^.*\//, '').slice(0, 14)}:${p.callFrame.lineNumber}`); p = nodes.get(parent.get(p.id)!); }
    const key = chain.join(' < ');
    callers.set(key, (callers.get(key) ?? 0) + inclOf(n));
  }
  console.log('== callers of', target);
  for (const [k, v] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log((v / 1000).toFixed(1).padStart(7), k);
}
