/**
 * The WidgetFrame props a widget's simulation and parameters decide, so that a widget passes them in one spread
 * each and a new frame state (a new field of the simulation's state) reaches every widget at once:
 * `<WidgetFrame id={…} title={…} {...simulationFrame(sim)} {...paramsFrame(params)} readouts={…} />`.
 * A prop written after a spread overrides it (a widget whose status also counts its own trace load, say).
 */
import type { ParamSchema } from '../../state/paramSchema';
import { ParamControls } from './controls/ParamControls';
import type { SimStatus, SimulationState } from './useSimulation';
import type { WidgetParams } from './useWidgetParams';
import type { WidgetFrameProps } from './WidgetFrame';

/** The frame props a simulation decides, its status always set. */
export type SimulationFrameProps = Pick<WidgetFrameProps, 'error' | 'onRetry' | 'stale' | 'cannotRun'> & {
  status: SimStatus;
};

export function simulationFrame(sim: SimulationState<unknown>): SimulationFrameProps {
  return {
    status: sim.status,
    error: sim.error,
    onRetry: sim.retry,
    stale: sim.stale,
    cannotRun: sim.cannotRun,
  };
}

/**
 * simulationFrame for a result that streams in parts: ready as soon as the parts in are `shown` (the picture draws
 * them while the job runs), and stale while what is drawn is not yet the whole current result: a newer run is
 * going, or the current run's parts are still coming in (`current` false).
 */
export function streamingFrame(
  sim: SimulationState<unknown>,
  shown: boolean,
  current = true,
): SimulationFrameProps {
  const status: SimStatus = sim.status === 'loading' && shown ? 'ready' : sim.status;
  return { ...simulationFrame(sim), status, stale: (sim.stale || !current) && status === 'ready' };
}

/** Corrected URL values, Reset, and one control per parameter of the schema. */
export function paramsFrame<S extends ParamSchema>(
  params: WidgetParams<S>,
): Pick<WidgetFrameProps, 'corrected' | 'onReset' | 'controls'> {
  return { corrected: params.corrected, onReset: params.reset, controls: <ParamControls params={params} /> };
}
