/**
 * `window.__salDebug`: handles for the browser tests and the curious (crash or silence the workers, occupy one,
 * call any worker method by name). Installed only in development builds and in the test build (main.tsx).
 */
import type { Services } from './app/services';
import type { MethodName } from './worker/methods';
import { simDebugSnapshots } from './widgets/kit/simDebug';

export function installDebugHandles(services: Services): void {
  (window as unknown as { __salDebug: unknown }).__salDebug = {
    crashWorker: (delayMs = 0) => services.sim.crashForTest(delayMs),
    silenceWorker: () => services.sim.silenceForTest(),
    /** Any worker method by name, e.g. to compare a browser run with a Node run of the same scenario. */
    call: (method: MethodName, args: unknown) => services.sim.call(method, args as never).result,
    /**
     * Why a widget may still be waiting: every simulation hook's state (job, frames held, frames its result says,
     * status), the client's jobs (frames handed over, dropped) and each worker's jobs in flight (frames emitted and
     * taken). e2e/fixtures.ts prints it when a widget is not ready in time.
     */
    async report() {
      return {
        widgets: Array.from(document.querySelectorAll('[data-widget]')).map(
          (w) => `${w.getAttribute('data-widget')}: ${w.getAttribute('data-state')}`,
        ),
        hooks: simDebugSnapshots(),
        client: services.sim.debugState(),
        workers: await services.sim.debugWorkers(),
      };
    },
    /** Occupy a worker with a job that never yields for `ms` milliseconds; resolves when it ends. */
    busyWorker: (ms: number) => services.sim.call('selfTest', { mode: 'busy', ms }).result,
    /** Start the worker's slow self-test, cancel it after `cancelAfter` frames, report what arrived. */
    async cancelSelfTest(cancelAfter: number) {
      const frames: number[] = [];
      const job = services.sim.call(
        'selfTest',
        { mode: 'slow' },
        {
          onFrame: (f) => {
            frames.push(f);
            if (frames.length === cancelAfter) job.cancel();
          },
        },
      );
      const outcome = await job.result.then(
        (r) => `resolved:${r}`,
        (e: unknown) => `rejected:${e instanceof Error ? e.message : String(e)}`,
      );
      return { frames, outcome };
    },
  };
}
