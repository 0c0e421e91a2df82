// scratch: ready at 4x with CSS variants, interleaved
import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
const lesson = process.argv[2] ?? '07-06-tool-calls-in-the-loop';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4488 });
async function run(css: string) {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.addInitScript(`window.__name = (f) => f; document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(css)}; document.head.appendChild(s); });`);
  await throttleCpu(page, 4);
  await page.goto(site.base + '/lessons/' + lesson);
  const r = await widgetsReady(page);
  await page.close();
  return r.allMs;
}
const variants: [string, string][] = [['settle', ''], ['from start', '.prose > * { content-visibility: auto; } .prose > section.widget { contain-intrinsic-size: auto 700px; } .prose > p { contain-intrinsic-size: auto 110px; }']];
const res = new Map<string, number[]>();
for (let i = 0; i < Number(process.env.N ?? 4); i++) for (const [n, c] of variants) { const ms = await run(c); res.set(n, [...(res.get(n) ?? []), ms]); }
for (const [n, xs] of res) console.log(n.padEnd(12), xs.map((x) => x.toFixed(0)).join(' '), 'median', [...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(0));
await site.close(); await browser.close();
