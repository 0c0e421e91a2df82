/**
 * Registers the build's service worker (serviceWorkerSource.ts) in a production build, and tells the page when the
 * lab is stored for offline use: a service worker controls the page (it activates only once every file is stored).
 */
import { useSyncExternalStore } from 'react';

export function registerOfflineCache(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // A widget framed in slides is stored per embedding site: not worth its megabytes there.
  if (window.top !== window.self) return;
  // After the page's own loading, so that storing the build never competes with the first paint.
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((err: unknown) => {
      // A browser that refuses (private mode, a policy) leaves the lab online-only; nothing else changes.
      console.warn('Serving Agents Lab: offline use is not available in this browser:', err);
    });
  });
}

function subscribe(onChange: () => void): () => void {
  if (!('serviceWorker' in navigator)) return () => {};
  navigator.serviceWorker.addEventListener('controllerchange', onChange);
  return () => navigator.serviceWorker.removeEventListener('controllerchange', onChange);
}

/** Whether the lab is stored and works without a network (a service worker controls this page). */
export function useOfflineReady(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => 'serviceWorker' in navigator && navigator.serviceWorker.controller !== null,
    () => false,
  );
}
