/** Tick and read-out text for chart axes, built on src/lib/format.ts: never NaN, Infinity or 17 digits. */
import { formatCount, MISSING } from '../../../lib/format';
import type { AxisSpec } from './types';
import { labelNamesUnit } from '../unitLabel';

/** Up to `digits` significant digits with k/M/B/T suffixes; e-notation below 0.001 and above 10^15. */
export function defaultFormat(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return MISSING;
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a < 1e-3 || a >= 1e15) {
    const [m, e] = v.toExponential(Math.max(0, digits - 1)).split('e');
    const mant = m.includes('.') ? m.replace(/\.?0+$/, '') : m;
    return `${mant}e${Number(e)}`;
  }
  return formatCount(v, digits);
}

export function tickFormatter(spec: AxisSpec): (v: number) => string {
  const f = spec.format ?? ((v: number) => defaultFormat(v));
  return (v) => (Number.isFinite(v) ? f(v) : MISSING);
}

const BARE_NUMBER = /^[-−]?[\d.,]+(?:e[-+]?\d+)?[kMBT]?$/;

/**
 * "Label (unit)", or the label alone when every tick already prints its own unit ("TTFT (s)" over ticks of
 * "100 ms" and "200 ms" would name one unit and show another) or the label already names it ("Allowed tokens",
 * not "Allowed tokens (tokens)").
 */
export function axisTitle(spec: AxisSpec, tickLabels: readonly string[] = []): string {
  if (!spec.unit || labelNamesUnit(spec.label, spec.unit)) return spec.label;
  const shown = tickLabels.filter((t) => t !== MISSING && t !== '');
  const unitsOnTicks = shown.length > 0 && shown.every((t) => !BARE_NUMBER.test(t));
  return unitsOnTicks ? spec.label : `${spec.label} (${spec.unit})`;
}

/** A value with its unit, for read-outs and value labels. */
export function valueText(spec: AxisSpec, v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return MISSING;
  if (spec.readout) return spec.readout(v);
  const s = tickFormatter(spec)(v);
  if (spec.unit && BARE_NUMBER.test(s)) return `${s} ${spec.unit}`;
  return s;
}
