import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'katex/dist/katex.min.css';
import './styles/app.css';
import './widgets/kit/charts/charts.css';
import { App } from './app/App';
import { ServicesProvider, type Services } from './app/services';
import { createProgressStore } from './state/progress';
import { createPreferencesStore } from './state/preferences';
import { SimClient } from './worker/client';
import type { MethodName } from './worker/methods';

function storage(): Storage | null {
  try {
    const s = window.localStorage;
    s.getItem('probe');
    return s;
  } catch {
    return null;
  }
}

const services: Services = {
  progress: createProgressStore(storage()),
  preferences: createPreferencesStore(storage()),
  sim: new SimClient(),
};

// A handle for browser tests and the curious: crash the worker to see the recovery path.
(window as unknown as { __salDebug: unknown }).__salDebug = {
  crashWorker: (delayMs = 0) => services.sim.crashForTest(delayMs),
  silenceWorker: () => services.sim.silenceForTest(),
  /** Any worker method by name, e.g. to compare a browser run with a Node run of the same scenario. */
  call: (method: MethodName, args: unknown) => services.sim.call(method, args as never).result,
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServicesProvider services={services}>
      <App />
    </ServicesProvider>
  </StrictMode>,
);
