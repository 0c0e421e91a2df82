/**
 * The built site served and driven for the browser benches: `vite preview` on a free port, headless Chromium
 * (the system one, as the browser tests use), and CPU throttling through the DevTools protocol.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Site {
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Build (once, when dist/ is missing), serve and launch. */
export async function openSite(): Promise<Site> {
  if (!existsSync('dist/index.html')) {
    const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('the build failed');
  }
  const port = await freePort();
  const server: ChildProcess = spawn(
    'node_modules/.bin/vite',
    ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      server.kill();
    },
  };
}

/**
 * A page for the benches' closures: tsx keeps function names with an `__name` helper that does not exist in the
 * page the closures run in, so every bench page gets an identity one.
 */
export async function benchPage(site: Site, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await site.browser.newPage({ viewport });
  await page.addInitScript('window.__name = (f) => f');
  return page;
}

/** Slow the page's CPU `rate`× (1 = off), as DevTools' performance panel does. */
export async function throttleCpu(page: Page, rate: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/** Wait until every widget on the page is ready (or fails), returning ms since navigation start. */
export async function widgetsReadyMs(page: Page, timeoutMs = 60_000): Promise<number> {
  return page.evaluate(async (timeout) => {
    const t0 = performance.now();
    for (;;) {
      const widgets = Array.from(document.querySelectorAll('[data-widget]'));
      const body = document.querySelector('.prose > :not(.loading)');
      if (body && widgets.length > 0 && widgets.every((w) => w.getAttribute('data-state') !== 'loading'))
        return performance.now();
      if (performance.now() - t0 > timeout) return NaN;
      await new Promise((r) => setTimeout(r, 10));
    }
  }, timeoutMs);
}
