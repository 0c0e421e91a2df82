// scratch: first full layout of a lesson at 4x with parts hidden
import { launchBrowser, openSite, throttleCpu, widgetsReady } from '../bench/browser/site';
const lesson = process.argv[2] ?? '07-06-tool-calls-in-the-loop';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4486 });
async function run(css: string) {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.addInitScript(`window.__name = (f) => f; document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(css)}; document.head.appendChild(s); });`);
  await throttleCpu(page, 4);
  await browser.startTracing(page, { categories: ['devtools.timeline'] });
  await page.goto(site.base + '/lessons/' + lesson);
  const r = await widgetsReady(page);
  const ev = JSON.parse((await browser.stopTracing()).toString()).traceEvents as any[];
  const lay = ev.filter((e) => e.name === 'Layout' && e.ph === 'X').map((e) => e.dur / 1000).sort((a, b) => b - a);
  await page.close();
  return `ready ${r.allMs.toFixed(0)} layouts ${lay.length} total ${lay.reduce((s, x) => s + x, 0).toFixed(0)} top ${lay.slice(0, 3).map((x) => x.toFixed(0)).join(' ')}`;
}
for (const [name, css] of [['base', ''], ['no display', '.katex-display { display: none !important; }'], ['no inline', 'p .katex, li .katex, td .katex { display: none !important; }'], ['serif fonts', '.katex, .katex * { font-family: serif !important; }'], ['base', '']]) console.log(name.padEnd(12), await run(css));
await site.close(); await browser.close();
