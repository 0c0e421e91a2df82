/**
 * The build's service worker (src/offline/serviceWorkerSource.ts), run in a stand-in service-worker scope: what it
 * stores when it installs, which stores it deletes when it activates, and where each request is answered from.
 */
import { describe, expect, it, vi } from 'vitest';
import { CACHE_PREFIX, serviceWorkerSource } from '../src/offline/serviceWorkerSource';

type Handler = (event: unknown) => void;

/** A cache store keyed by path, as the Cache API keys by request URL. */
class FakeCaches {
  readonly stores = new Map<string, Map<string, string>>();
  /** A host's "Vary: Origin" on every stored file: a request with an Origin matches only when Vary is ignored. */
  varyOrigin = false;
  async open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, string>();
    this.stores.set(name, store);
    const key = (r: string | { url: string }) => new URL(typeof r === 'string' ? r : r.url, ORIGIN).pathname;
    return {
      addAll: async (urls: string[]) => {
        for (const u of urls) store.set(key(u), `file ${u}`);
      },
      match: async (r: string | { url: string; origin?: string }, opts?: { ignoreVary?: boolean }) =>
        this.varyOrigin && typeof r !== 'string' && r.origin && !opts?.ignoreVary
          ? undefined
          : store.get(key(r)),
    };
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
}

const ORIGIN = 'https://lab.example';

/** Run the generated source in a stand-in scope; returns its handlers and what they used. */
function install(version: string, files: string[], network: (url: string) => Promise<string>) {
  const handlers = new Map<string, Handler>();
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, h: Handler) => handlers.set(type, h),
    skipWaiting: vi.fn(async () => undefined),
    clients: { claim: vi.fn(async () => undefined) },
  };
  const caches = new FakeCaches();
  const fetch = vi.fn((r: { url: string } | string) => network(typeof r === 'string' ? r : r.url));
  const Response = { error: () => 'network error' };
  new Function('self', 'caches', 'fetch', 'Response', serviceWorkerSource(version, files))(
    scope,
    caches,
    fetch,
    Response,
  );
  /** Dispatch an event that may call waitUntil / respondWith; resolves with what it waited for or answered. */
  const dispatch = async (type: string, fields: Record<string, unknown> = {}) => {
    let waited: Promise<unknown> | undefined;
    let answered: Promise<unknown> | undefined;
    handlers.get(type)!({
      ...fields,
      waitUntil: (p: Promise<unknown>) => (waited = p),
      respondWith: (p: Promise<unknown>) => (answered = p),
    });
    return { waited: await waited, answered: answered === undefined ? undefined : await answered };
  };
  return { scope, caches, fetch, dispatch };
}

const request = (path: string, mode = 'cors', method = 'GET', origin = ORIGIN) => ({
  request: { url: `${origin}${path}`, mode, method },
});

describe('the offline service worker', () => {
  const files = ['index.html', 'assets/app-abc123.js', 'traces/sample.jsonl'];
  const online = async (url: string) => `network ${new URL(url).pathname}`;
  const offline = async () => {
    throw new TypeError('Failed to fetch');
  };

  it('stores every file of the build when it installs, then takes over at once', async () => {
    const sw = install('v2', files, online);
    await sw.dispatch('install');
    const store = sw.caches.stores.get(`${CACHE_PREFIX}v2`)!;
    expect([...store.keys()]).toEqual(['/index.html', '/assets/app-abc123.js', '/traces/sample.jsonl']);
    expect(sw.scope.skipWaiting).toHaveBeenCalled();
  });

  it('deletes older builds’ stores when it activates, and leaves stores that are not its own', async () => {
    const sw = install('v2', files, online);
    await sw.caches.open(`${CACHE_PREFIX}v1`);
    await sw.caches.open('someone-else');
    await sw.dispatch('install');
    await sw.dispatch('activate');
    expect(await sw.caches.keys()).toEqual(['someone-else', `${CACHE_PREFIX}v2`]);
    expect(sw.scope.clients.claim).toHaveBeenCalled();
  });

  it('asks the network for pages first, and answers with the stored shell when it is unreachable', async () => {
    const up = install('v2', files, online);
    await up.dispatch('install');
    expect((await up.dispatch('fetch', request('/lessons/07-04', 'navigate'))).answered).toBe(
      'network /lessons/07-04',
    );
    const down = install('v2', files, offline);
    await down.dispatch('install'); // stores from the build's own files, which the stand-in has
    expect((await down.dispatch('fetch', request('/glossary', 'navigate'))).answered).toBe(
      'file /index.html',
    );
  });

  it('serves stored files without the network, and asks the network for what it did not store', async () => {
    const sw = install('v2', files, online);
    await sw.dispatch('install');
    sw.fetch.mockClear();
    expect((await sw.dispatch('fetch', request('/assets/app-abc123.js'))).answered).toBe(
      'file /assets/app-abc123.js',
    );
    expect(sw.fetch).not.toHaveBeenCalled();
    expect((await sw.dispatch('fetch', request('/assets/new.js'))).answered).toBe('network /assets/new.js');
  });

  it('serves a module script (a request with an Origin) from the store when the host varies by Origin', async () => {
    const sw = install('v2', files, offline);
    sw.caches.varyOrigin = true;
    await sw.dispatch('install');
    const script = { request: { ...request('/assets/app-abc123.js').request, origin: ORIGIN } };
    expect((await sw.dispatch('fetch', script)).answered).toBe('file /assets/app-abc123.js');
  });

  it('leaves other origins and other methods to the browser', async () => {
    const sw = install('v2', files, online);
    expect((await sw.dispatch('fetch', request('/x', 'cors', 'POST'))).answered).toBeUndefined();
    expect(
      (await sw.dispatch('fetch', request('/x', 'cors', 'GET', 'https://elsewhere.example'))).answered,
    ).toBeUndefined();
  });
});
