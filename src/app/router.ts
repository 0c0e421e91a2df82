/**
 * A small history-API router: the app has two kinds of page (home and lesson), so a routing library would
 * add more than it saves. Paths are real and shareable; the server falls back to index.html.
 */
import { useSyncExternalStore } from 'react';
import { flushUrlWrites } from '../state/widgetParams';

const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** The query string (`?…`), re-read whenever the app navigates or replaces it. */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

/** Replace the query string in place (no history entry), keeping path and hash, and tell subscribers. */
export function replaceSearch(next: string | ((current: string) => string)) {
  // A widget's coalesced parameter write first, so a change computed from the query keeps it.
  flushUrlWrites();
  const search = typeof next === 'function' ? next(window.location.search) : next;
  const { pathname, hash } = window.location;
  if (search === window.location.search) return;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`);
  for (const l of listeners) l();
}

export function navigate(to: string) {
  if (to === window.location.pathname + window.location.search + window.location.hash) return;
  window.history.pushState(null, '', to);
  for (const l of listeners) l();
  if (!to.includes('#')) window.scrollTo(0, 0);
}

export type Route =
  | { kind: 'home' }
  | { kind: 'lesson'; slug: string }
  | { kind: 'widget'; id: string }
  | { kind: 'glossary' }
  | { kind: 'not-found'; path: string };

export function matchRoute(pathname: string): Route {
  const p = pathname.replace(/\/+$/, '') || '/';
  if (p === '/') return { kind: 'home' };
  if (p === '/glossary') return { kind: 'glossary' };
  const m = /^\/lessons\/([a-z0-9-]+)$/.exec(p);
  if (m) return { kind: 'lesson', slug: m[1] };
  const w = /^\/widget\/([a-z0-9-]+)$/.exec(p);
  if (w) return { kind: 'widget', id: w[1] };
  return { kind: 'not-found', path: pathname };
}
