/**
 * Tool-latency distributions in closed form (lesson 07.06): what a distribution of pause lengths T says about the
 * pause, the figures a KV-holding policy is priced from (ttlPolicy.ts does the pricing).
 *
 *   F(t)            = P(T ≤ t)                       share of pauses over by t
 *   M(t)            = E[T · 1{T ≤ t}]                partial mean (the tool time spent in calls over by t)
 *   E[min(T, τ)]    = M(τ) + τ · (1 − F(τ))          seconds a TTL of τ holds the KV, per pause
 *   G(t)            = M(t) / E[T]                    share of tool time in calls over by t
 *   h(t)            = f(t) / (1 − F(t))              hazard: the rate at which a call that has run t seconds ends
 *
 * Distributions are the `Dist` objects of src/sim/engine/fleet/dist.ts (the fleet simulator samples the same objects),
 * including their clipping to [min, max]: a clipped value T = clip(X, min, max) has atoms at min and max.
 * Supported: constant, uniform, exponential, lognormal, normal, choice and mixtures of them, and a step's wait for
 * parallel calls (`parallel`: the longest of n draws), whose F is closed (Σ P(n) · F_each(t)ⁿ) and whose M is
 * integrated numerically (parallelSurvival below).
 */
import { TOOL_LATENCY_PRESETS, type Dist, type ToolLatencyPreset } from '../engine/fleet/dist';
import type { ToolLatency } from '../engine/fleet/workload';
import { normCdf, normPdf, normQuantile } from './standardNormal';

/** A tool-latency spec of the workload (a Dist, a preset name, or a weighted mix) as one Dist. */
export function resolveToolLatency(t: ToolLatency): Dist {
  if (typeof t === 'string') {
    const d = TOOL_LATENCY_PRESETS[t as ToolLatencyPreset] as Dist | undefined;
    if (!d) throw new RangeError(`unknown tool-latency preset "${t}"`);
    return d;
  }
  if ('mix' in t)
    return {
      kind: 'mixture',
      components: t.mix.map((m) => ({ weight: m.weight, dist: resolveToolLatency(m.tool) })),
    };
  return t;
}

/** The unclipped variable X of a continuous kind: its CDF and E[X · 1{a < X ≤ b}]. */
interface Raw {
  cdf(x: number): number;
  /** E[X · 1{a < X ≤ b}] for a ≤ b (a may be −∞, b may be +∞). */
  partial(a: number, b: number): number;
}

function rawOf(d: Dist): Raw | null {
  switch (d.kind) {
    case 'lognormal': {
      const mu = Math.log(d.median);
      const s = d.sigma;
      if (s === 0) return null;
      const m = Math.exp(mu + (s * s) / 2);
      const zc = (x: number) => (x <= 0 ? -Infinity : (Math.log(x) - mu) / s);
      return {
        cdf: (x) => normCdf(zc(x)),
        partial: (a, b) => {
          const za = a <= 0 ? -Infinity : (Math.log(a) - mu - s * s) / s;
          const zb = b <= 0 ? -Infinity : b === Infinity ? Infinity : (Math.log(b) - mu - s * s) / s;
          return m * (normCdf(zb) - normCdf(za));
        },
      };
    }
    case 'exponential': {
      const m = d.mean;
      // ∫₀ᵇ x e^{−x/m}/m dx = m − (b + m) e^{−b/m}
      const upTo = (b: number) => (b <= 0 ? 0 : b === Infinity ? m : m - (b + m) * Math.exp(-b / m));
      return {
        cdf: (x) => (x <= 0 ? 0 : 1 - Math.exp(-x / m)),
        partial: (a, b) => upTo(b) - upTo(a),
      };
    }
    case 'normal': {
      const { mean: mu, sd } = d;
      if (sd === 0) return null;
      const z = (x: number) => (x - mu) / sd;
      // E[X · 1{X ≤ b}] = μ Φ(z_b) − σ φ(z_b)
      const upTo = (b: number) =>
        b === -Infinity ? 0 : b === Infinity ? mu : mu * normCdf(z(b)) - sd * normPdf(z(b));
      return { cdf: (x) => normCdf(z(x)), partial: (a, b) => upTo(b) - upTo(a) };
    }
    case 'uniform': {
      const { min: lo, max: hi } = d;
      if (hi === lo) return null;
      const clamp = (x: number) => Math.min(hi, Math.max(lo, x));
      return {
        cdf: (x) => (clamp(x) - lo) / (hi - lo),
        partial: (a, b) => {
          const x0 = clamp(a);
          const x1 = clamp(b);
          return (x1 * x1 - x0 * x0) / (2 * (hi - lo));
        },
      };
    }
    default:
      return null;
  }
}

/** The clip bounds of a kind (normal defaults min to 0, as the sampler does). */
function bounds(d: Dist): [number, number] {
  switch (d.kind) {
    case 'lognormal':
    case 'exponential':
      return [d.min ?? -Infinity, d.max ?? Infinity];
    case 'normal':
      return [d.min ?? 0, d.max ?? Infinity];
    default:
      return [-Infinity, Infinity];
  }
}

/** The value a degenerate continuous kind always takes (σ = 0, sd = 0, min = max), clipped. */
function degenerate(d: Dist): number | null {
  const [lo, hi] = bounds(d);
  const clip = (x: number) => Math.min(hi, Math.max(lo, x));
  if (d.kind === 'constant') return d.value;
  if (d.kind === 'lognormal' && d.sigma === 0) return clip(d.median);
  if (d.kind === 'normal' && d.sd === 0) return clip(d.mean);
  if (d.kind === 'uniform' && d.min === d.max) return d.min;
  return null;
}

function weightsOf(d: { kind: 'choice'; values: number[]; weights?: number[] }): number[] {
  const w = d.weights ?? d.values.map(() => 1);
  let total = 0;
  for (const x of w) total += x;
  return w.map((x) => x / total);
}

type Parallel = Extract<Dist, { kind: 'parallel' }>;

/** A parallel step's call counts with their probabilities, as the sampler rounds them (whole, at least 1). */
function callCounts(d: Parallel): { n: number; p: number }[] {
  const c = d.calls;
  if (c.kind === 'constant') return [{ n: Math.max(1, Math.round(c.value)), p: 1 }];
  if (c.kind === 'choice') {
    const w = weightsOf(c);
    return c.values.map((n, i) => ({ n: Math.max(1, Math.round(n)), p: w[i] }));
  }
  throw new RangeError(`a parallel step's calls must be a constant or a choice of counts (got ${c.kind})`);
}

/**
 * ∫ₛ^∞ (1 − F(u)) du of a parallel step, tabulated once per distribution on a log grid (1 ns to 10¹³ s, 200 points
 * a decade; trapezoids, whose relative error is about 10⁻⁵ there, checked against the closed forms with one call).
 * The longest of n draws has no closed-form partial mean even when each draw has one; its mean and E[min(T, τ)]
 * are these integrals, and M(t) = E[min(T, t)] − t · (1 − F(t)). Durations are taken as ≥ 0.
 */
interface SurvivalTable {
  /** Grid points (s) and 1 − F there. */
  s: Float64Array;
  surv: Float64Array;
  /** ∫ from s[i] to ∞ of 1 − F. */
  tail: Float64Array;
  /** ∫ from 0 to ∞ of 1 − F: the mean. */
  total: number;
}

const GRID_LO = -9;
const GRID_HI = 13;
const GRID_PER_DECADE = 200;
const survivalTables = new WeakMap<Dist, SurvivalTable>();

function parallelSurvival(d: Parallel): SurvivalTable {
  const known = survivalTables.get(d);
  if (known) return known;
  const n = (GRID_HI - GRID_LO) * GRID_PER_DECADE + 1;
  const s = new Float64Array(n);
  const surv = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s[i] = Math.pow(10, GRID_LO + i / GRID_PER_DECADE);
    surv[i] = 1 - cdf(d, s[i]);
  }
  const tail = new Float64Array(n);
  for (let i = n - 2; i >= 0; i--) tail[i] = tail[i + 1] + ((surv[i] + surv[i + 1]) / 2) * (s[i + 1] - s[i]);
  // Below the grid's first point, 1 − F is at most 1 over a nanosecond.
  const table = { s, surv, tail, total: tail[0] + s[0] * surv[0] };
  survivalTables.set(d, table);
  return table;
}

/** ∫₀^τ (1 − F(u)) du = E[min(T, τ)] of a parallel step. */
function parallelExpectedMin(d: Parallel, tau: number, survTau: number): number {
  const t = parallelSurvival(d);
  if (tau === Infinity) return t.total;
  if (!(tau > 0)) return 0;
  const x = (Math.log10(tau) - GRID_LO) * GRID_PER_DECADE;
  if (x < 0) return tau * survTau; // under a nanosecond: 1 − F is flat there
  const i = Math.floor(x);
  if (i >= t.s.length - 1) return t.total;
  const tailTau = t.tail[i + 1] + ((survTau + t.surv[i + 1]) / 2) * (t.s[i + 1] - tau);
  return t.total - tailTau;
}

/** M(t) of a parallel step from E[min(T, t)], given 1 − F(t) (its callers have it: one evaluation of F, not two). */
function parallelPartialMean(d: Parallel, t: number, survT: number): number {
  return Math.max(0, parallelExpectedMin(d, t, survT) - t * survT);
}

/** F(t) = P(T ≤ t). */
export function cdf(d: Dist, t: number): number {
  if (d.kind === 'parallel') {
    const f = cdf(d.each, t);
    let p = 0;
    for (const c of callCounts(d)) p += c.p * Math.pow(f, c.n);
    return p;
  }
  const v = degenerate(d);
  if (v !== null) return t >= v ? 1 : 0;
  if (d.kind === 'choice') {
    const w = weightsOf(d);
    let p = 0;
    d.values.forEach((x, i) => {
      if (x <= t) p += w[i];
    });
    return p;
  }
  if (d.kind === 'mixture') {
    let total = 0;
    let p = 0;
    for (const c of d.components) {
      total += c.weight;
      p += c.weight * cdf(c.dist, t);
    }
    return total > 0 ? p / total : 0;
  }
  const raw = rawOf(d)!;
  const [lo, hi] = bounds(d);
  if (t < lo) return 0;
  if (t >= hi) return 1;
  return raw.cdf(t);
}

/** M(t) = E[T · 1{T ≤ t}]: the mean time of the calls over by t, weighted by their probability. */
export function partialMean(d: Dist, t: number): number {
  if (d.kind === 'parallel') {
    if (t === Infinity) return parallelExpectedMin(d, Infinity, 0);
    if (!(t > 0)) return 0;
    return parallelPartialMean(d, t, 1 - cdf(d, t));
  }
  const v = degenerate(d);
  if (v !== null) return t >= v ? v : 0;
  if (d.kind === 'choice') {
    const w = weightsOf(d);
    let s = 0;
    d.values.forEach((x, i) => {
      if (x <= t) s += w[i] * x;
    });
    return s;
  }
  if (d.kind === 'mixture') {
    let total = 0;
    let s = 0;
    for (const c of d.components) {
      total += c.weight;
      s += c.weight * partialMean(c.dist, t);
    }
    return total > 0 ? s / total : 0;
  }
  const raw = rawOf(d)!;
  const [lo, hi] = bounds(d);
  if (t < lo) return 0;
  // The atom at lo (X ≤ lo), then the continuous part up to min(t, hi), then the atom at hi (X > hi).
  const atLo = lo > -Infinity ? lo * raw.cdf(lo) : 0;
  const body = raw.partial(lo, Math.min(t, hi));
  const atHi = t >= hi && hi < Infinity ? hi * (1 - raw.cdf(hi)) : 0;
  return atLo + body + atHi;
}

/** E[T]. */
export function mean(d: Dist): number {
  return partialMean(d, Infinity);
}

/** E[min(T, τ)] = M(τ) + τ · (1 − F(τ)): the seconds a TTL of τ holds the KV, on average per pause. */
export function expectedMin(d: Dist, tau: number): number {
  if (tau === Infinity) return mean(d);
  if (!(tau > 0)) return 0;
  const surv = 1 - cdf(d, tau);
  return (d.kind === 'parallel' ? parallelPartialMean(d, tau, surv) : partialMean(d, tau)) + tau * surv;
}

/** G(t) = M(t) / E[T]: the share of tool time spent in calls over by t. */
export function timeShare(d: Dist, t: number): number {
  const m = mean(d);
  return m > 0 ? partialMean(d, t) / m : 0;
}

/** P(T ≤ t + Δ | T > t): the chance a call that has run t seconds ends within the next Δ. */
export function endsWithin(d: Dist, t: number, dt: number): number {
  const s = 1 - cdf(d, t);
  if (!(s > 1e-15)) return 1;
  return (cdf(d, t + dt) - cdf(d, t)) / s;
}

/** h(t) = f(t) / (1 − F(t)), numerically (a central difference of F on a log scale). */
export function hazard(d: Dist, t: number): number {
  const e = 1e-4;
  const a = t * (1 - e);
  const b = t * (1 + e);
  const s = 1 - cdf(d, t);
  if (!(s > 1e-15)) return Infinity;
  return (cdf(d, b) - cdf(d, a)) / (b - a) / s;
}

/** The smallest t with F(t) ≥ p (p in (0, 1)): closed form for a log-normal, bisection otherwise. */
export function quantile(d: Dist, p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be in (0, 1), got ${p}`);
  if (d.kind === 'lognormal' && d.sigma > 0) {
    const [lo, hi] = bounds(d);
    const x = d.median * Math.exp(d.sigma * normQuantile(p));
    return Math.min(hi, Math.max(lo, x));
  }
  const v = degenerate(d);
  if (v !== null) return v;
  let a = 0;
  let b = 1;
  while (cdf(d, b) < p && b < 1e12) b *= 2;
  if (cdf(d, a) >= p) {
    a = -1;
    while (cdf(d, a) >= p && a > -1e12) a *= 2;
  }
  for (let i = 0; i < 200 && b - a > 1e-12 * Math.max(1, Math.abs(b)); i++) {
    const m = (a + b) / 2;
    if (cdf(d, m) >= p) b = m;
    else a = m;
  }
  return b;
}
