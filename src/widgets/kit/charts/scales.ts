/** Scales and ticks. D3 computes; React draws. */
import { scaleLinear, scaleLog, ticks as d3ticks, type ScaleContinuousNumeric } from 'd3';
import { r2, textWidth } from './layout';
import { tickFormatter } from './chartFormat';
import { formatDuration, formatPercent } from '../../../lib/format';
import type { AxisSpec } from './types';

export type NumScale = ScaleContinuousNumeric<number, number>;

export interface Tick {
  value: number;
  /** Pixel position along the axis. */
  pos: number;
  label: string;
}

export function isLog(spec: AxisSpec): boolean {
  return spec.scale === 'log';
}

/** A value usable on this axis: finite, and positive on a log axis. */
export function usable(spec: AxisSpec, v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v) && (!isLog(spec) || v > 0);
}

/** The extent of the usable values, or null when there are none. */
export function extentOf(
  spec: AxisSpec,
  values: Iterable<number | null | undefined>,
): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!usable(spec, v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

/** Resolve the domain: fixed, or the data's extent padded when degenerate and made nice. */
export function resolveDomain(
  spec: AxisSpec,
  extent: [number, number] | null,
  opts: { zero?: boolean; nice?: boolean } = {},
): [number, number] {
  const log = isLog(spec);
  if (
    spec.domain &&
    Number.isFinite(spec.domain[0]) &&
    Number.isFinite(spec.domain[1]) &&
    spec.domain[0] !== spec.domain[1]
  ) {
    const [a, b] = spec.domain;
    if (!log || (a > 0 && b > 0)) return [a, b];
  }
  let [lo, hi] = extent ?? (log ? [1, 10] : [0, 1]);
  if (log) {
    if (lo === hi) {
      lo /= 10;
      hi *= 10;
    }
    const s = scaleLog().domain([lo, hi]);
    if (opts.nice !== false) s.nice();
    return s.domain() as [number, number];
  }
  const zero = spec.zero ?? opts.zero ?? false;
  if (zero) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const s = scaleLinear().domain([lo, hi]);
  if (opts.nice !== false) s.nice();
  const d = s.domain() as [number, number];
  // Guard against overflow to ±Infinity for values near Number.MAX_VALUE.
  return Number.isFinite(d[0]) && Number.isFinite(d[1]) ? d : [lo, hi];
}

export function makeScale(spec: AxisSpec, domain: [number, number], range: [number, number]): NumScale {
  return (isLog(spec) ? scaleLog() : scaleLinear()).domain(domain).range(range);
}

/** Powers of ten inside [lo, hi]. */
export function decadesIn(lo: number, hi: number): number[] {
  const a = Math.min(lo, hi);
  const b = Math.max(lo, hi);
  const out: number[] = [];
  for (let e = Math.ceil(Math.log10(a) - 1e-9); e <= Math.floor(Math.log10(b) + 1e-9); e++)
    out.push(Number(`1e${e}`));
  return out;
}

/**
 * Ticks that fit: about one per `spacing` px, then thinned until the labels do not overlap.
 * A log axis spanning a decade or more gets decade ticks only (thinned to every 2nd, 3rd … decade when narrow).
 */
export function axisTicks(spec: AxisSpec, scale: NumScale, orientation: 'x' | 'y', fontSize = 11): Tick[] {
  const [r0, r1] = scale.range();
  const length = Math.abs(r1 - r0);
  const spacing = orientation === 'x' ? 72 : 36;
  const count = Math.max(2, Math.min(12, Math.floor(length / spacing)));
  const [d0, d1] = scale.domain();
  let values: number[];
  if (spec.ticks) {
    const lo = Math.min(d0, d1);
    const hi = Math.max(d0, d1);
    const eps = (hi - lo) * 1e-9;
    values = (
      typeof spec.ticks === 'function' ? spec.ticks([lo, hi], count, isLog(spec)) : [...spec.ticks]
    ).filter((v) => v >= lo - eps && v <= hi + eps);
  } else if (isLog(spec)) {
    const dec = decadesIn(d0, d1);
    values = dec.length >= 2 ? dec : d3ticks(Math.min(d0, d1), Math.max(d0, d1), count);
    if (values.length < 2) values = [Math.min(d0, d1), Math.max(d0, d1)];
  } else {
    values = scale.ticks(count);
  }
  const fmt = tickFormatter(spec);
  let ticks = values
    .filter((v) => Number.isFinite(v))
    .map((value) => ({ value, pos: r2(scale(value)), label: fmt(value) }));
  ticks = ticks.filter((t) => Number.isFinite(t.pos));
  // Thin until neighbours do not overlap (x: label widths; y: line height).
  const size = (t: Tick) => (orientation === 'x' ? textWidth(t.label, fontSize) : fontSize * 1.3);
  for (let stride = 1; stride <= ticks.length; stride++) {
    const kept = ticks.filter((_, i) => i % stride === 0);
    let ok = true;
    for (let i = 1; i < kept.length; i++) {
      const gap = Math.abs(kept[i].pos - kept[i - 1].pos);
      if (gap < (size(kept[i]) + size(kept[i - 1])) / 2 + 6) {
        ok = false;
        break;
      }
    }
    if (ok) return kept;
  }
  return ticks.slice(0, 1);
}

/** Round binary steps (…, 512 MiB, 1 GiB, 2 GiB, 5 GiB …) for byte axes labelled with formatBytes. */
export function bytesTicks(domain: [number, number], count: number): number[] {
  const [lo, hi] = domain;
  const m = Math.max(Math.abs(lo), Math.abs(hi));
  if (!(m > 0) || !Number.isFinite(m)) return [];
  const unit = 1024 ** Math.max(0, Math.floor(Math.log(m) / Math.log(1024)));
  return d3ticks(lo / unit, hi / unit, count).map((v) => v * unit);
}

const TIME_STEPS = [
  ...Array.from({ length: 10 }, (_, i) => Number(`1e${i - 9}`)),
  10,
  60,
  600,
  3600,
  36000,
  86400,
  864000,
  8640000,
];

/** The units formatDuration prints from a minute up, in seconds. */
const MINUTE_AND_UP = [60, 3600, 86400];
/** Steps in the unit the axis's largest value prints in: half a unit (1.5 min), one, and round multiples. */
const UNIT_STEPS = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500];

/**
 * Ticks for durations in seconds labelled with formatDuration: on a log axis 1 ns … 1 s, 10 s, 1 min, 10 min,
 * 1 h, 10 h, 1 d …; on a linear axis that reaches a minute (an hour, a day), steps of whole or half minutes
 * (hours, days), so every label reads "30 s", "1 min", "1.5 min", "2 min", never the "1.7 min" that 100 s is;
 * below a minute, d3's round steps of seconds.
 */
export function durationTicks(domain: [number, number], count: number, log = false): number[] {
  const lo = Math.min(domain[0], domain[1]);
  const hi = Math.max(domain[0], domain[1]);
  if (log) {
    const eps = (hi - lo) * 1e-9;
    const t = TIME_STEPS.filter((v) => v >= lo - eps && v <= hi + eps);
    return t.length >= 2 ? t : d3ticks(lo, hi, count);
  }
  const m = Math.max(Math.abs(lo), Math.abs(hi));
  const unit = MINUTE_AND_UP.filter((u) => m >= u).pop();
  if (unit === undefined) return d3ticks(lo, hi, count);
  const step = UNIT_STEPS.map((k) => k * unit).find((st) => (hi - lo) / st <= Math.max(1, count));
  const ticks: number[] = [];
  if (step !== undefined)
    for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) ticks.push(v);
  // A narrow window far from zero (100–110 s): round steps in the unit, as before.
  return ticks.length >= 2 ? ticks : d3ticks(lo / unit, hi / unit, count).map((v) => v * unit);
}

/**
 * An axis of seconds: labels by formatDuration (to `digits` significant digits) on durationTicks' round steps, so a
 * time axis cannot be given the one without the other.
 */
export function durationAxis(
  label: string,
  spec: Omit<AxisSpec, 'label' | 'format' | 'ticks'> & { digits?: number } = {},
): AxisSpec & Required<Pick<AxisSpec, 'format' | 'ticks'>> {
  const { digits, ...rest } = spec;
  return { label, ...rest, format: (s) => formatDuration(s, digits), ticks: durationTicks };
}

/**
 * An axis of a share from 0 to 1 (a hit rate, a cumulative share): ticks in percent to 2 significant digits, read-outs
 * to the default precision, the whole range shown so that two charts of shares compare by eye.
 */
export function shareAxis(label: string, spec: Omit<AxisSpec, 'label'> = {}): AxisSpec {
  return {
    label,
    domain: [0, 1],
    format: (v) => formatPercent(v, 2),
    readout: (v) => formatPercent(v),
    ...spec,
  };
}
