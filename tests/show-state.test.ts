// @vitest-environment happy-dom
/**
 * showState (src/widgets/kit/showState.ts), the one path tour steps and "Try this" items show a state through: a
 * state whose parameters it has just set is not shown yet (the widget has not rendered them, and a re-run may draw
 * its read-outs anew), and it is shown once the widget, idle, draws the highlighted read-out.
 */
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createStageRegistry } from '../src/widgets/kit/stage';
import { showState, type ShowProgress } from '../src/widgets/kit/showState';
import type { ParamSchema } from '../src/state/paramSchema';

function widgetWithReadout(): { element: HTMLElement; readout: () => HTMLElement } {
  const element = document.createElement('section');
  element.innerHTML = '<span data-readout="agents-per-replica">16</span>';
  document.body.append(element);
  return { element, readout: () => element.querySelector<HTMLElement>('[data-readout]')! };
}

function setup() {
  const stage = createStageRegistry();
  const { element, readout } = widgetWithReadout();
  stage.addScreen({ kind: 'widget', id: 'slo-sweep', label: 'SLO sweep', element });
  const sets: Array<[string, unknown]> = [];
  const store = createStore(() => ({
    reset: () => sets.push(['reset', null]),
    set: (k: string, v: unknown) => sets.push([k, v]),
  })) as unknown as StoreApiOf;
  stage.addParams({ id: 'slo-sweep', schema: {} as ParamSchema, store });
  const progress: ShowProgress = { done: new Set(), scrollTop: null, scrollEnds: 0 };
  const state = { widget: 'slo-sweep', set: { tpotP90S: 0.03 }, highlight: 'agents-per-replica' };
  const show = () => showState(stage, state, progress, { scroll: false });
  return { element, readout, sets, show };
}
// A fake parameter store: only what showState calls.
type StoreApiOf = Parameters<ReturnType<typeof createStageRegistry>['addParams']>[0]['store'];

describe('showState', () => {
  it('is not done in the check that set the parameters, even where the widget still looks idle', () => {
    const { readout, sets, show } = setup();
    expect(show()).toBe(false);
    expect(sets).toEqual([
      ['reset', null],
      ['tpotP90S', 0.03],
    ]);
    expect(readout().hasAttribute('data-tour-highlight')).toBe(true);
  });

  it('highlights a read-out drawn anew while the widget re-runs, and is done once the widget is idle', () => {
    const { element, readout, sets, show } = setup();
    show();
    // The re-run for the new settings: busy, its streamed read-out a new element.
    element.setAttribute('aria-busy', 'true');
    element.innerHTML = '<span data-readout="agents-per-replica">≥ 2</span>';
    expect(show()).toBe(false);
    expect(readout().hasAttribute('data-tour-highlight')).toBe(true);
    // The run's end draws the read-out once more; the widget is idle.
    element.removeAttribute('aria-busy');
    element.innerHTML = '<span data-readout="agents-per-replica">6</span>';
    expect(show()).toBe(true);
    expect(readout().hasAttribute('data-tour-highlight')).toBe(true);
    // The parameters were set once, not at every check.
    expect(sets.filter(([k]) => k === 'reset')).toHaveLength(1);
  });
});
