// @vitest-environment happy-dom
/**
 * The streaming hook (src/widgets/kit/useSimulation.ts, useStreamingSimulation) under React's concurrent
 * rendering: no batch of frames may be lost, whatever order React renders them in. 07.04's kv-hierarchy lost one
 * at load and said "Computing…" for good (docs/reliability.md); this reproduces the interleaving that did it.
 */
import { describe, expect, it } from 'vitest';
import { startTransition, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { createRoot } from 'react-dom/client';
import { ServicesProvider, type Services } from '../src/app/services';
import { useStreamingSimulation } from '../src/widgets/kit/useSimulation';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* a slow render */
  }
};
/** One turn of the event loop: React's scheduler yields between its slices with setImmediate here. */
const turn = () => new Promise<void>((r) => setImmediate(r));
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await turn();
};
const microtasks = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** The lanes of the component that rendered `el` (React's own fields: the test steers its transition lanes). */
function laneOf(el: Element): number {
  const k = Object.keys(el).find((x) => x.startsWith('__reactFiber$'))!;
  const f = (
    el as unknown as Record<string, { return: { lanes: number; alternate: { lanes: number } | null } }>
  )[k].return;
  return f.lanes | (f.alternate?.lanes ?? 0);
}
/** React 19's transition lanes, claimed one per event in turn (lowest first when several are pending). */
const FIRST_TRANSITION_LANE = 256;
const LAST_TRANSITION_LANE = 131072;

describe('useStreamingSimulation under concurrent rendering', () => {
  it('keeps every frame when a batch arrives during a render that covers its lane (frame lost at 07.04’s load)', async () => {
    // A worker bridge whose frames the test sends.
    let send: (f: { t: number }) => void = () => {};
    const sim = {
      call: (_m: string, _a: unknown, o: { onFrame?: (f: { t: number }) => void }) => {
        send = o.onFrame!;
        return { id: 1, result: new Promise(() => {}), cancel: () => {} };
      },
    };
    // Animation frames run when the test says.
    const frameQueue: FrameRequestCallback[] = [];
    globalThis.requestAnimationFrame = (cb) => frameQueue.push(cb);
    globalThis.cancelAnimationFrame = () => {};
    const animationFrame = () => frameQueue.splice(0).forEach((cb) => cb(0));
    const frame = (t: number) => {
      send({ t });
      animationFrame();
    };

    let phase = 'idle';
    let streamerRenders = 0;
    let setTick: Dispatch<SetStateAction<number>> = () => {};
    function Streamer() {
      const s = useStreamingSimulation('kvHierarchyRun', { seed: 1 } as never);
      streamerRenders++;
      return <p>{s.frames.map((f) => (f as unknown as { t: number }).t).join(',')}</p>;
    }
    function Slow({ block }: { n: number; block: number }) {
      busy(1);
      if (phase.startsWith('R')) phase = `R${block}`;
      return null;
    }
    function App() {
      const [tick, set] = useState(0);
      setTick = set;
      // Rendered again only for its own updates, as a widget among many figures is.
      const streamer = useMemo(() => <Streamer />, []);
      return (
        <div id="app">
          {Array.from({ length: 40 }, (_, i) => (
            <Slow key={`a${i}`} n={i + tick} block={1} />
          ))}
          {streamer}
          {Array.from({ length: 40 }, (_, i) => (
            <Slow key={`b${i}`} n={i + tick} block={2} />
          ))}
        </div>
      );
    }
    const el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    root.render(
      <ServicesProvider services={{ sim } as unknown as Services}>
        <App />
      </ServicesProvider>,
    );
    await turns(100);
    frame(0);
    await turns(100);
    const shown = () => el.querySelector('p')!.textContent;
    expect(shown()).toBe('0');

    // Many results in flight, each a transition of its own event (the lesson's figures): every transition lane
    // pending before React renders, and the next one claimed is the lane it renders first.
    const app = el.querySelector('#app')!;
    startTransition(() => setTick((v) => v + 1));
    await microtasks();
    let lane = laneOf(app);
    let claims = 1;
    while (claims < 10 || lane !== LAST_TRANSITION_LANE) {
      startTransition(() => setTick((v) => v + 1));
      await microtasks();
      claims++;
      lane = lane === LAST_TRANSITION_LANE ? FIRST_TRANSITION_LANE : lane * 2;
    }

    // A batch arrives while that render is under way, before it reaches the widget; the next batch after the
    // render passed the widget (which it renders for that lane, without the batch: it is not in its queue yet).
    phase = 'R';
    const rendersBefore = streamerRenders;
    let sent = 0;
    for (let i = 0; i < 5000 && sent < 2; i++) {
      await turn();
      if (sent === 0 && phase === 'R1') {
        frame(6);
        sent++;
      } else if (sent === 1 && phase === 'R2' && streamerRenders > rendersBefore) {
        frame(7);
        sent++;
      }
    }
    expect(sent).toBe(2);
    await turns(2000);
    expect(shown()).toBe('0,6,7');
    root.unmount();
  });
});
