/**
 * A number control's range from the core's own limit (src/sim/engine/limits.ts): the whole limit, or a narrower
 * range offered inside it (named at the schema beside the limit it sits in). A wider one is a programming error,
 * refused when the schema loads; tests/control-ranges.test.ts checks every widget against its worker method. Whole
 * numbers and the step stay the control's own (a control of whole tokens may still move in steps of 10).
 */
import type { Limit } from '../../sim/engine/limits';

export interface ControlRange {
  min: number;
  max: number;
}

/**
 * `offered`: the part of the limit the control offers (default all of it), in the core's units; `scale`: control
 * units per core unit (1000 for a control in ms over a limit in s).
 */
export function controlRange(l: Limit, offered?: { min: number; max: number }, scale = 1): ControlRange {
  const r = offered ?? l;
  if (r.min < l.min || r.max > l.max || r.min > r.max)
    throw new Error(
      `the control for ${l.what} offers ${r.min}–${r.max}, outside what the core accepts (${l.min}–${l.max})`,
    );
  return {
    min: Number((r.min * scale).toPrecision(12)),
    max: Number((r.max * scale).toPrecision(12)),
  };
}
