import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
const lesson = process.argv[2] ?? '07-06-tool-calls-in-the-loop';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4487, dist: process.env.DIST ?? '/tmp/dist-nomin' });
const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript('window.__name = (f) => f;');
await throttleCpu(page, 4);
await page.goto('about:blank');
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
await cdp.send('Profiler.start');
await page.goto(site.base + '/lessons/' + lesson);
const r = await widgetsReady(page);
const { profile } = (await cdp.send('Profiler.stop')) as any;
console.log('ready', r.allMs.toFixed(0));
const self = new Map<number, number>();
profile.samples.forEach((id: number, i: number) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const nodes = new Map(profile.nodes.map((n: any) => [n.id, n]));
const memo = new Map<number, number>();
const incl = (n: any): number => { if (memo.has(n.id)) return memo.get(n.id)!; const v = (self.get(n.id) ?? 0) + (n.children ?? []).reduce((s: number, c: number) => s + incl(nodes.get(c)), 0); memo.set(n.id, v); return v; };
const by = new Map<string, number>(); const bySelf = new Map<string, number>();
for (const n of profile.nodes as any[]) { const f = n.callFrame; const k = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`; bySelf.set(k, (bySelf.get(k) ?? 0) + (self.get(n.id) ?? 0)); }
// inclusive per component-ish function: count only outermost occurrence
const walk = (n: any, seen: Set<string>) => { const f = n.callFrame; const k = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`; const top = !seen.has(k); if (top) by.set(k, (by.get(k) ?? 0) + incl(n)); const s2 = new Set(seen); s2.add(k); for (const c of n.children ?? []) walk(nodes.get(c), s2); };
walk(profile.nodes[0], new Set());
console.log('--- self'); for (const [k, v] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(0).padStart(6), k);
console.log('--- inclusive (app code)'); for (const [k, v] of [...by].filter(([k]) => !/index-.*\.js/.test(k) || /[A-Z][a-z]+[A-Z]?\w* index/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((v / 1000).toFixed(0).padStart(6), k);
await site.close(); await browser.close();
