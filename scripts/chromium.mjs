// The system Chromium and the flags it needs on these machines (as root, with no network beyond loopback), for
// every place that starts it: the browser tests (playwright.config.ts), the browser benches and the dev scripts.
// Playwright cannot download browsers here; the Debian package `chromium` is the one driven.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
