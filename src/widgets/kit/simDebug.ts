/**
 * The simulation hooks' own state, for diagnostics: in development and in the test build (VITE_SAL_DEBUG=1), each
 * streaming hook (useSimulation.ts) registers a snapshot here, and `window.__salDebug.report()` (debugHandles.ts)
 * returns them with the client's and the workers' account of their jobs. A browser test that times out on a widget
 * still "loading" prints it (e2e/fixtures.ts), so it says which side stopped: the worker (frames emitted, not yet
 * taken), the bridge (frames dropped) or the hook (job, frames held, frames the result says, status).
 */

export const SIM_DEBUG = import.meta.env.DEV || import.meta.env.VITE_SAL_DEBUG === '1';

export type SimDebugSnapshot = Record<string, unknown>;

const hooks = new Set<() => SimDebugSnapshot>();

/** Register a snapshot function; returns its removal. Does nothing outside debug builds. */
export function registerSimDebug(snapshot: () => SimDebugSnapshot): () => void {
  if (!SIM_DEBUG) return () => {};
  hooks.add(snapshot);
  return () => hooks.delete(snapshot);
}

/** Every registered hook's state now. */
export function simDebugSnapshots(): SimDebugSnapshot[] {
  return [...hooks].map((s) => s());
}
