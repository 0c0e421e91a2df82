/**
 * The build's service worker (src/offline/serviceWorkerSource.ts), run in a stand-in service-worker scope: what it
 * stores when it installs, which stores it deletes when it activates, and where each request is answered from.
 */
import { describe, expect, it, vi } from 'vitest';
import { CACHE_PREFIX, serviceWorkerSource } from '../src/offline/serviceWorkerSource';

type Handler = (event: unknown) => void;
const ORIGIN = 'https://lab.example';
const path = (r: string | { url: string }) => new URL(typeof r === 'string' ? r : r.url, ORIGIN).pathname;

/** What the stand-in network and store hand around: a body, and whether a redirect produced it. */
class FakeResponse {
  ok: boolean;
  constructor(
    readonly body: string,
    readonly init: { status?: number } = {},
    readonly redirected = false,
  ) {
    this.ok = (init.status ?? 200) < 400;
  }
  get status() {
    return this.init.status ?? 200;
  }
  statusText = '';
  headers = {};
  async blob() {
    return this.body;
  }
  static error() {
    return 'network error';
  }
}

/** A cache store keyed by path, as the Cache API keys by request URL. */
class FakeCaches {
  readonly stores = new Map<string, Map<string, FakeResponse>>();
  /** A host's "Vary: Origin" on every stored file: a request with an Origin matches only when Vary is ignored. */
  varyOrigin = false;
  async open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, FakeResponse>();
    this.stores.set(name, store);
    return {
      put: async (r: string, response: FakeResponse) => void store.set(path(r), response),
      match: async (r: string | { url: string; origin?: string }, opts?: { ignoreVary?: boolean }) =>
        this.varyOrigin && typeof r !== 'string' && r.origin && !opts?.ignoreVary
          ? undefined
          : store.get(path(r)),
    };
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
}

type Network = (url: string, init?: { cache?: string }) => Promise<FakeResponse>;

/** Run the generated source in a stand-in scope; returns its handlers and what they used. */
function install(version: string, files: string[], network: Network, timers = { now: false }) {
  const handlers = new Map<string, Handler>();
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, h: Handler) => handlers.set(type, h),
    skipWaiting: vi.fn(async () => undefined),
    clients: { claim: vi.fn(async () => undefined) },
  };
  const caches = new FakeCaches();
  class FakeRequest {
    constructor(
      readonly url: string,
      readonly init: { cache?: string },
    ) {}
  }
  const fetch = vi.fn((r: { url: string; init?: { cache?: string } } | string) =>
    typeof r === 'string' ? network(r) : network(r.url, r.init),
  );
  // The navigation's time limit: fired at once (timers.now) or never.
  const setTimeout = (f: () => void) => (timers.now ? f() : undefined);
  new Function(
    'self',
    'caches',
    'fetch',
    'Request',
    'Response',
    'setTimeout',
    serviceWorkerSource(version, files),
  )(scope, caches, fetch, FakeRequest, FakeResponse, setTimeout);
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
  const stored = (p: string) => caches.stores.get(`${CACHE_PREFIX}${version}`)?.get(p);
  return { scope, caches, fetch, dispatch, stored };
}

const request = (p: string, mode = 'cors', method = 'GET', origin = ORIGIN) => ({
  request: { url: `${origin}${p}`, mode, method },
});
const body = (r: unknown) => (r instanceof FakeResponse ? r.body : r);

describe('the offline service worker', () => {
  const files = ['index.html', 'assets/app-abc123.js', 'traces/sample.jsonl'];
  const online: Network = async (url) => new FakeResponse(`network ${path(url)}`);
  const offline: Network = async () => {
    throw new TypeError('Failed to fetch');
  };

  it('stores every file of the build, the shell as "/", past the HTTP cache, and does not push out a running build', async () => {
    const sw = install('v2', files, online);
    await sw.dispatch('install');
    expect([...sw.caches.stores.get(`${CACHE_PREFIX}v2`)!.keys()]).toEqual([
      '/',
      '/assets/app-abc123.js',
      '/traces/sample.jsonl',
    ]);
    expect(sw.fetch.mock.calls.every(([r]) => typeof r !== 'string' && r.init?.cache === 'reload')).toBe(
      true,
    );
    expect(sw.scope.skipWaiting).not.toHaveBeenCalled();
  });

  it('stores a redirected response as a plain one, and fails the install on a file the server refuses', async () => {
    const redirecting: Network = async (url) =>
      new FakeResponse(`network ${path(url)}`, {}, path(url) === '/');
    const sw = install('v2', files, redirecting);
    await sw.dispatch('install');
    expect(sw.stored('/')!.redirected).toBe(false);
    expect(sw.stored('/')!.body).toBe('network /');
    const refusing: Network = async (url) =>
      new FakeResponse('', { status: path(url) === '/traces/sample.jsonl' ? 404 : 200 });
    await expect(install('v3', files, refusing).dispatch('install')).rejects.toThrow(
      '/traces/sample.jsonl: 404',
    );
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

  it('asks the network for pages first; the stored shell answers when it fails or is too slow', async () => {
    const up = install('v2', files, online);
    await up.dispatch('install');
    expect(body((await up.dispatch('fetch', request('/lessons/07-04', 'navigate'))).answered)).toBe(
      'network /lessons/07-04',
    );
    const down = install('v2', files, online);
    await down.dispatch('install');
    down.fetch.mockImplementation(async () => offline(''));
    expect(body((await down.dispatch('fetch', request('/glossary', 'navigate'))).answered)).toBe('network /');
    const slow = install('v2', files, online, { now: true });
    await slow.dispatch('install');
    slow.fetch.mockImplementation(() => new Promise(() => {})); // never answers
    expect(body((await slow.dispatch('fetch', request('/glossary', 'navigate'))).answered)).toBe('network /');
  });

  it('serves stored files without the network, and asks the network for what it did not store', async () => {
    const sw = install('v2', files, online);
    await sw.dispatch('install');
    sw.fetch.mockClear();
    expect(body((await sw.dispatch('fetch', request('/assets/app-abc123.js'))).answered)).toBe(
      'network /assets/app-abc123.js', // the body stored at install
    );
    expect(sw.fetch).not.toHaveBeenCalled();
    expect(body((await sw.dispatch('fetch', request('/assets/new.js'))).answered)).toBe(
      'network /assets/new.js',
    );
    expect(sw.fetch).toHaveBeenCalledTimes(1);
  });

  it('serves a module script (a request with an Origin) from the store when the host varies by Origin', async () => {
    const sw = install('v2', files, online);
    sw.caches.varyOrigin = true;
    await sw.dispatch('install');
    sw.fetch.mockImplementation(async () => offline(''));
    const script = { request: { ...request('/assets/app-abc123.js').request, origin: ORIGIN } };
    expect(body((await sw.dispatch('fetch', script)).answered)).toBe('network /assets/app-abc123.js');
  });

  it('leaves other origins and other methods to the browser', async () => {
    const sw = install('v2', files, online);
    expect((await sw.dispatch('fetch', request('/x', 'cors', 'POST'))).answered).toBeUndefined();
    expect(
      (await sw.dispatch('fetch', request('/x', 'cors', 'GET', 'https://elsewhere.example'))).answered,
    ).toBeUndefined();
  });
});
