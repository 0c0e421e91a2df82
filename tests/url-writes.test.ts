/**
 * The browser URL's writes (src/state/widgetParams.ts browserUrl): a single change is written at once, a burst
 * (a dragged slider) once more when it rests, and a change still pending when the page is hidden is written then.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface FakePage {
  writes: string[];
  listeners: Map<string, () => void>;
  visibility: string;
}

async function loadWithFakePage(): Promise<{
  page: FakePage;
  url: typeof import('../src/state/widgetParams').browserUrl;
}> {
  const page: FakePage = { writes: [], listeners: new Map(), visibility: 'visible' };
  const location = { pathname: '/lessons/x', search: '', hash: '' };
  vi.stubGlobal('window', {
    location,
    history: {
      state: null,
      replaceState(_s: unknown, _t: string, href: string) {
        location.search = href.slice(location.pathname.length);
        page.writes.push(location.search);
      },
    },
    addEventListener: (type: string, f: () => void) => page.listeners.set(`window:${type}`, f),
  });
  vi.stubGlobal('document', {
    get visibilityState() {
      return page.visibility;
    },
    addEventListener: (type: string, f: () => void) => page.listeners.set(`document:${type}`, f),
  });
  vi.resetModules();
  const { browserUrl } = await import('../src/state/widgetParams');
  return { page, url: browserUrl };
}

describe('browserUrl writes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('writes a single change at once', async () => {
    const { page, url } = await loadWithFakePage();
    url.write('?a=1');
    expect(page.writes).toEqual(['?a=1']);
    vi.advanceTimersByTime(1000);
    expect(page.writes).toEqual(['?a=1']);
  });

  it('writes a drag at its first step and once more when it rests, reading the pending value meanwhile', async () => {
    const { page, url } = await loadWithFakePage();
    for (let i = 1; i <= 20; i++) {
      url.write(`?a=${i}`);
      vi.advanceTimersByTime(50);
    }
    expect(page.writes).toEqual(['?a=1']);
    expect(url.read()).toBe('?a=20');
    vi.advanceTimersByTime(200);
    expect(page.writes).toEqual(['?a=1', '?a=20']);
    // The burst is over: the next change is written at once again.
    vi.advanceTimersByTime(200);
    url.write('?a=21');
    expect(page.writes).toEqual(['?a=1', '?a=20', '?a=21']);
  });

  it('writes a pending change when the page is hidden or left', async () => {
    const { page, url } = await loadWithFakePage();
    url.write('?a=1');
    url.write('?a=2');
    page.visibility = 'hidden';
    page.listeners.get('document:visibilitychange')!();
    expect(page.writes).toEqual(['?a=1', '?a=2']);
    url.write('?a=3');
    page.listeners.get('window:pagehide')!();
    expect(page.writes).toEqual(['?a=1', '?a=2', '?a=3']);
  });
});
