import { benchPage, launchBrowser, openSite, widgetsReady } from '../bench/browser/site';
const browser = await launchBrowser();
const site = await openSite({ browser, port: 4481 });
const page = await benchPage(site);
await page.goto(site.base + '/lessons/' + (process.argv[2] ?? '07-03-cache-aware-routing'));
await widgetsReady(page);
console.log(await page.evaluate(() => {
  const all = document.querySelectorAll('*').length;
  const prose = document.querySelector('.prose');
  const kids = prose ? Array.from(prose.children).map((c) => c.tagName + '.' + c.className.toString().slice(0, 30) + ':' + c.querySelectorAll('*').length) : [];
  const svgs = document.querySelectorAll('svg *').length;
  return { all, svgs, height: document.documentElement.scrollHeight, chain: prose ? (()=>{let p: Element|null = prose; const c=[]; while(p){c.push(p.tagName+'.'+p.className);p=p.parentElement;} return c;})() : [], kids: kids.slice(0, 80) };
}));
await site.close(); await browser.close();
