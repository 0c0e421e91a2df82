import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulationFrame } from '../src/widgets/kit/frameProps';
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

  it('are spread, never written out prop by prop, in every widget', () => {
    const byHand = widgetSources(new URL('../src/widgets', import.meta.url).pathname).filter((f) => {
      const s = readFileSync(f, 'utf8');
      const sim = /\bstatus=\{(\w+)\.status\}/.exec(s)?.[1];
      const handSim =
        sim !== undefined && s.includes(`error={${sim}.error}`) && s.includes(`onRetry={${sim}.retry}`);
      const params = /\bcorrected=\{(\w+)\.corrected\}/.exec(s)?.[1];
      const handParams = params !== undefined && s.includes(`onReset={${params}.reset}`);
      return handSim || handParams;
    });
    expect(byHand).toEqual([]);
  });
});
