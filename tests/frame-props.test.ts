import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulationFrame, streamingFrame } from '../src/widgets/kit/frameProps';
import type { SimulationState } from '../src/widgets/kit/useSimulation';

function widgetSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'kit'
        ? []
        : widgetSources(join(dir, e.name))
      : e.name.endsWith('.tsx')
        ? [join(dir, e.name)]
        : [],
  );
}

describe('the frame props a simulation and a widget’s parameters decide', () => {
  it('pass the simulation’s state through under the frame’s names', () => {
    const retry = () => {};
    const cannotRun = { reason: 'too small', fixes: [] } as unknown as SimulationState<unknown>['cannotRun'];
    const sim: SimulationState<unknown> = {
      status: 'ready',
      result: 1,
      error: 'boom',
      stale: true,
      cannotRun,
      resultKey: 'k',
      retry,
    };
    expect(simulationFrame(sim)).toEqual({
      status: 'ready',
      error: 'boom',
      onRetry: retry,
      stale: true,
      cannotRun,
    });
  });

  it('for a streamed result: ready once parts are shown, stale until they are the whole current result', () => {
    const sim = (status: SimulationState<unknown>['status'], stale = false): SimulationState<unknown> => ({
      status,
      result: null,
      error: status === 'error' ? 'boom' : null,
      stale,
      cannotRun: null,
      resultKey: null,
      retry: () => {},
    });
    expect(streamingFrame(sim('loading'), false)).toMatchObject({ status: 'loading', stale: false });
    expect(streamingFrame(sim('loading'), true)).toMatchObject({ status: 'ready', stale: false });
    expect(streamingFrame(sim('loading'), true, false)).toMatchObject({ status: 'ready', stale: true });
    expect(streamingFrame(sim('ready', true), true)).toMatchObject({ status: 'ready', stale: true });
    expect(streamingFrame(sim('error'), true, false)).toMatchObject({
      status: 'error',
      stale: false,
      error: 'boom',
    });
  });

  it('are spread, never written out prop by prop, in every widget', () => {
    const byHand = widgetSources(new URL('../src/widgets', import.meta.url).pathname).filter((f) => {
      const s = readFileSync(f, 'utf8');
      const sim = /\bstatus=\{(\w+)\.status\}/.exec(s)?.[1];
      const handSim =
        sim !== undefined && s.includes(`error={${sim}.error}`) && s.includes(`onRetry={${sim}.retry}`);
      const params = /\bcorrected=\{(\w+)\.corrected\}/.exec(s)?.[1];
      const handParams = params !== undefined && s.includes(`onReset={${params}.reset}`);
      // A streamed result's ready-while-partial and stale, derived by hand.
      const handStream = /status === 'loading' && [^?]+\? 'ready'/.test(s);
      return handSim || handParams || handStream;
    });
    expect(byHand).toEqual([]);
  });
});
