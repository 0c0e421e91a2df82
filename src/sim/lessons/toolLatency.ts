/**
 * Tool-latency distributions in closed form (lesson 07.06): what a distribution of pause lengths T says about
 * holding a session's KV cache through the pause.
 *
 *   F(t)            = P(T ≤ t)                       share of pauses over by t
 *   M(t)            = E[T · 1{T ≤ t}]                partial mean (the tool time spent in calls over by t)
 *   E[min(T, τ)]    = M(τ) + τ · (1 − F(τ))          seconds a TTL of τ holds the KV, per pause
 *   G(t)            = M(t) / E[T]                    share of tool time in calls over by t
 *   h(t)            = f(t) / (1 − F(t))              hazard: the rate at which a call that has run t seconds ends
 *
 * A TTL policy holds the KV for τ seconds, then lets it go (evict, or offload to a lower tier). With a holding
 * cost of c_h per second (the share of the replica's KV budget the context occupies) and a miss cost c_m (the
 * seconds a resume costs when the KV is gone: a recompute, or a reload), one pause costs
 *
 *   C(τ) = c_h · E[min(T, τ)] + c_m · (1 − F(τ)),      dC/dτ = (1 − F(τ)) · (c_h − c_m · h(τ)),
 *
 * so holding on pays while the hazard exceeds c_h / c_m (Continuum's TTL idea, Li et al., arXiv 2511.02230, and
 * InferCept's "waste = memory × time" accounting, Abhyankar et al., ICML'24).
 *
 * Distributions are the `Dist` objects of src/sim/engine/fleet/dist.ts (the fleet simulator samples the same objects),
 * including their clipping to [min, max]: a clipped value T = clip(X, min, max) has atoms at min and max.
 * Supported: constant, uniform, exponential, lognormal, normal, choice and mixtures of them.
 */
import { TOOL_LATENCY_PRESETS, type Dist, type ToolLatencyPreset } from '../engine/fleet/dist';
import type { ToolLatency } from '../engine/fleet/workload';

// ───────────────────────────── the standard normal ─────────────────────────────

const SQRT2PI = Math.sqrt(2 * Math.PI);

/** φ(z), the standard normal density. */
export function normPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / SQRT2PI;
}

/**
 * Φ(z), the standard normal CDF, to double precision (Hart 1968, algorithm 5666, as given by G. West, "Better
 * approximations to cumulative normal functions", Wilmott Magazine 2005).
 */
export function normCdf(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z === Infinity) return 1;
  if (z === -Infinity) return 0;
  const x = Math.abs(z);
  let c: number;
  if (x > 37) c = 0;
  else {
    const e = Math.exp((-x * x) / 2);
    if (x < 7.07106781186547) {
      let b = 3.52624965998911e-2 * x + 0.700383064443688;
      b = b * x + 6.37396220353165;
      b = b * x + 33.912866078383;
      b = b * x + 112.079291497871;
      b = b * x + 221.213596169931;
      b = b * x + 220.206867912376;
      c = e * b;
      b = 8.83883476483184e-2 * x + 1.75566716318264;
      b = b * x + 16.064177579207;
      b = b * x + 86.7807322029461;
      b = b * x + 296.564248779674;
      b = b * x + 637.333633378831;
      b = b * x + 793.826512519948;
      b = b * x + 440.413735824752;
      c /= b;
    } else {
      let b = x + 0.65;
      b = x + 4 / b;
      b = x + 3 / b;
      b = x + 2 / b;
      b = x + 1 / b;
      c = e / b / SQRT2PI;
    }
  }
  return z > 0 ? 1 - c : c;
}

/**
 * Φ⁻¹(p), the standard normal quantile: P. J. Acklam's rational approximation (relative error < 1.2e-9), then
 * one Halley step on Φ, which brings it to double precision.
 */
export function normQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  let x: number;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - lo) {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const e = normCdf(x) - p;
  const u = e * SQRT2PI * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

// ───────────────────────────── distributions ─────────────────────────────

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

/** F(t) = P(T ≤ t). */
export function cdf(d: Dist, t: number): number {
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
  return partialMean(d, tau) + tau * (1 - cdf(d, tau));
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

// ───────────────────────────── TTL costs ─────────────────────────────

/**
 * Expected cost of one pause under "hold for τ, then let go": c_h per second held for min(T, τ), plus c_m when
 * the pause outlasts τ. τ = 0 is "let go at once", τ = ∞ is "hold until the next turn".
 */
export function ttlCost(d: Dist, tau: number, holdPerS: number, miss: number): number {
  if (tau === Infinity) return holdPerS * mean(d);
  return holdPerS * expectedMin(d, tau) + miss * (1 - cdf(d, Math.max(0, tau)));
}

export interface OptimalTtl {
  /** The cost-minimising TTL (s): 0 = let go at once, Infinity = hold until resume. */
  ttlS: number;
  /** C(τ*). */
  cost: number;
  /** C(0) and C(∞), for comparison. */
  costLetGo: number;
  costHold: number;
}

/**
 * argmin over τ of C(τ), on a log grid from `minS` to `maxS` (64 points per decade, then golden-section
 * refinement around the best), with τ = 0 and τ = ∞ as candidates. The grid matters: a log-normal's hazard rises
 * then falls, so C can have a local minimum below the global one.
 */
export function optimalTtl(
  d: Dist,
  holdPerS: number,
  miss: number,
  { minS = 1e-3, maxS = 86_400 }: { minS?: number; maxS?: number } = {},
): OptimalTtl {
  if (!(holdPerS >= 0) || !(miss >= 0)) throw new RangeError('costs must be ≥ 0');
  const C = (t: number) => ttlCost(d, t, holdPerS, miss);
  const costLetGo = C(0);
  const costHold = C(Infinity);
  const decades = Math.log10(maxS / minS);
  const n = Math.max(2, Math.ceil(decades * 64));
  let best = 0;
  let bestCost = costLetGo;
  let bestI = -1;
  const grid: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = minS * Math.pow(10, (decades * i) / n);
    grid.push(t);
    const c = C(t);
    if (c < bestCost) {
      bestCost = c;
      best = t;
      bestI = i;
    }
  }
  if (bestI >= 0) {
    // Golden-section search in log t between the grid neighbours.
    let a = Math.log(grid[Math.max(0, bestI - 1)]);
    let b = Math.log(grid[Math.min(n, bestI + 1)]);
    const g = (Math.sqrt(5) - 1) / 2;
    let x1 = b - g * (b - a);
    let x2 = a + g * (b - a);
    let f1 = C(Math.exp(x1));
    let f2 = C(Math.exp(x2));
    for (let i = 0; i < 60; i++) {
      if (f1 < f2) {
        b = x2;
        x2 = x1;
        f2 = f1;
        x1 = b - g * (b - a);
        f1 = C(Math.exp(x1));
      } else {
        a = x1;
        x1 = x2;
        f1 = f2;
        x2 = a + g * (b - a);
        f2 = C(Math.exp(x2));
      }
    }
    const t = Math.exp((a + b) / 2);
    const c = C(t);
    if (c < bestCost) {
      best = t;
      bestCost = c;
    }
  }
  // Ties (within rounding) go to the simpler policy: holding to the end.
  if (costHold <= bestCost * (1 + 1e-9)) {
    best = Infinity;
    bestCost = costHold;
  }
  return { ttlS: best, cost: bestCost, costLetGo, costHold };
}

// ───────────────────────────── an idle-timeout prefix cache ─────────────────────────────

export interface IdleTimeoutMix {
  /** Gaps before user-initiated steps (human waits). */
  human: Dist;
  /** Gaps before tool-result steps (the tool call the step waited for). */
  tool: Dist;
  /** Share of steps that are user-initiated. */
  userStepShare: number;
  /** The hit rate of a cache that never evicts: 1 − fresh tokens / all prompt tokens. */
  ceiling: number;
}

/**
 * The achievable hit rate of TraceLab's idealised idle-timeout cache (artifacts/prefix_cache/eviction_tradeoff):
 * a step's cacheable tokens hit when the idle gap before it is ≤ τ and are prefilled again otherwise. With
 * every step weighing the same number of tokens (the trace weights by tokens; the presets carry no token
 * counts, which is this model's simplification) and a single tool call per tool-result step (the trace takes
 * the longest of a step's parallel calls, 1.2 per step on average),
 *
 *   hit(τ) = ceiling · (u · F_human(τ) + (1 − u) · F_tool(τ)).
 */
export function idleTimeoutHitRate(tau: number, mix: IdleTimeoutMix): number {
  const u = mix.userStepShare;
  return mix.ceiling * (u * cdf(mix.human, tau) + (1 - u) * cdf(mix.tool, tau));
}
