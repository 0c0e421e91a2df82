/**
 * Reload vs recompute: is it faster to bring a prefix's KV cache over a link, or to prefill it again?
 *
 *   reload(p)    = λ + p · k·ρ / B                   λ latency (s), k KV bytes/token, B link bytes/s (all links)
 *   recompute(p) = prefillTime(model, hw, p, 0) = max( Fc(p), Fm(p) ) + Cα + Cβ · p + o   (src/sim/engine/cost.ts)
 *     Fc(p) = (2·body · p + 2·V·D) / G + A/2 · (p² + p) / G_a        compute branch, G = tp·peak·e_gemm,
 *                                                                   G_a = tp·peakBF16·e_attn
 *     Cα + Cβ · p: the all-reduces (latency and bandwidth parts), o: the iteration overhead, both outside the max
 *     Fm(p) = ( W(p) + k·ρ · p ) / M                                memory branch,  M = tp·bw·mbu
 *   with A = attention FLOPs per pair, body = active − 2·V·D matmul params, ρ = KV copies across TP (each GPU
 *   writes its own in prefill and reloads its own: an MLA latent, held whole by every GPU, crosses the links tp times),
 *   W(p) = weight bytes touched: constant for a dense model, b·(S + X·(1 − q^p)) for a MoE (q = 1 − k_e/E).
 *
 * Solving d(p) = reload(p) − recompute(p) = 0 ANALYTICALLY. Because recompute is a max, d = min(d_c, d_m) with
 * The comm and overhead terms fold into reload's: λ' = λ − Cα − o, s' = s − Cβ. Then
 *   d_c(p) = λ' + s'·p − Fc(p)  (s = k·ρ/B): a concave quadratic → the quadratic formula (0, 1 or 2 roots);
 *   d_m(p) = λ + s·p − Fm(p): linear for a dense model → one root (Fm(0) − λ)/(s − kρ/M);
 *          for a MoE  d_m = α + β·p + γ·q^p, whose roots are p = −α/β − W_k(z)/ln q with
 *          z = (γ·ln q / β) · e^(−α·ln q/β) and W_k the Lambert W function (branch 0, and −1 when z < 0).
 * (Both closed forms, and the Lambert W they need, are in realRoots.ts.)
 * A root of d_c is a root of d only where the compute branch is the active one (Fc ≥ Fm), and likewise for d_m,
 * so each branch's roots are kept only where that branch is the max. The survivors are then checked to be sign
 * changes of d (a tangency is not a crossing), and the sign of d on each interval between them gives the regime.
 *
 * Why zero, one or two crossings? recompute has a floor (the weights must be streamed once even for one token,
 * ~6.5 ms for a 70B model on 8 × H100) and then grows linearly and quadratically; reload has a tiny fixed latency
 * and grows linearly. So reload wins very short prefixes (below the floor), may lose in the middle when the link's
 * per-token cost k·ρ/B exceeds the per-token compute cost, and always wins again for long enough prefixes, since
 * attention makes recompute quadratic. Which of these happen inside the model's context is the regime.
 *
 * Compared with Mooncake (Qin et al., FAST'25, §2.2, Eq. 1–2): flops(n) = l·(a·n²·d + b·n·d²), a = 4, b = 22, and
 * reuse beats recompute when B/G > 2·d·s / (gqa · (a·p·d + b·d²)). That is our compute branch with λ = 0, the
 * linear coefficient written as l·b·d² (we use 2·active params from the model card: 25.9·d² per layer for
 * Llama-3-70B) and attention counted without the causal mask (a·p² vs. our A/2·p(p+1), half as large). Their
 * condition ignores the memory-bound floor, so it cannot show that reload wins short prefixes.
 * See mooncakeMinBandwidth and tests/breakeven.test.ts.
 */
import { DTYPE_BYTES, type ModelSpec } from './catalog/models';
import {
  allReducePerTokenTime,
  effectiveAttentionFlops,
  effectiveFlops,
  effectiveMemBandwidth,
  iterationFixedTime,
  perTokenPrefillTime,
  prefillCost,
  prefillTime,
  type HardwareConfig,
} from './cost';
import {
  attentionFlopsPerPair,
  bodyParams,
  embeddingParams,
  replicaKvBytesPerToken,
  weightSplit,
} from './flopsAndBytes';
import { expLinearRoots, polish, quadraticRoots } from './realRoots';

/** The path KV takes back to HBM: aggregate bandwidth into the replica (bytes/s) and a per-transfer latency (s). */
export interface ReloadPath {
  bandwidth: number;
  latency: number;
}

export type BreakEvenRegime =
  | 'reload-always-wins'
  | 'recompute-always-wins'
  | 'reload-wins-above'
  | 'reload-wins-below'
  | 'recompute-wins-between'
  | 'reload-wins-between'
  | 'mixed';

export interface BreakEvenResult {
  /** Prefix lengths (tokens, real-valued) in (1, maxTokens] where reload − recompute changes sign, ascending. */
  crossings: number[];
  /** Crossings beyond maxTokens (the model's context by default), for reference. */
  crossingsBeyondDomain: number[];
  regime: BreakEvenRegime;
  explanation: string;
  /** Upper end of the prefix range considered (tokens). */
  maxTokens: number;
  /** λ, s. */
  reloadLatency: number;
  /** k·ρ / B, s per token. */
  reloadSecondsPerToken: number;
  /** recompute(1): a one-token prefill, i.e. streaming the weights one token touches, s. */
  recomputeFloorSeconds: number;
  /** Marginal compute cost of a prefilled token at context 0 and at maxTokens, s per token. */
  recomputeSecondsPerTokenAtStart: number;
  recomputeSecondsPerTokenAtEnd: number;
}

function checkPath(path: ReloadPath): void {
  if (!(path.bandwidth > 0 && Number.isFinite(path.bandwidth)))
    throw new RangeError(`link bandwidth must be a positive finite number of bytes/s, got ${path.bandwidth}`);
  if (!(path.latency >= 0 && Number.isFinite(path.latency)))
    throw new RangeError(`link latency must be a finite number of seconds ≥ 0, got ${path.latency}`);
}

/** Seconds to bring p tokens of KV over the path: λ + p·k·ρ/B (0 for p = 0). */
export function reloadTime(
  model: ModelSpec,
  hw: HardwareConfig,
  path: ReloadPath,
  prefixTokens: number,
): number {
  checkPath(path);
  if (!(prefixTokens >= 0)) throw new RangeError(`prefixTokens must be ≥ 0, got ${prefixTokens}`);
  if (prefixTokens === 0) return 0;
  return path.latency + (prefixTokens * replicaKvBytesPerToken(model, hw.kvDtype, hw.tp)) / path.bandwidth;
}

/** Seconds to prefill p tokens from scratch: prefillTime(model, hw, p, 0). */
export function recomputeTime(model: ModelSpec, hw: HardwareConfig, prefixTokens: number): number {
  return prefillTime(model, hw, prefixTokens, 0);
}

/**
 * Link bandwidth (bytes/s) at which reloading `prefixTokens` tokens takes exactly as long as recomputing them:
 *   B* = p·k·ρ / (recompute(p) − λ).  Reload wins for any faster link. Infinity if λ ≥ recompute(p) (the latency
 * alone loses, whatever the bandwidth).
 */
export function minLinkBandwidth(
  model: ModelSpec,
  hw: HardwareConfig,
  prefixTokens: number,
  latency: number,
): number {
  if (!(prefixTokens > 0 && Number.isFinite(prefixTokens)))
    throw new RangeError(`prefixTokens must be positive, got ${prefixTokens}`);
  if (!(latency >= 0 && Number.isFinite(latency)))
    throw new RangeError(`latency must be ≥ 0 s, got ${latency}`);
  const r = recomputeTime(model, hw, prefixTokens);
  if (r <= latency) return Infinity;
  return (prefixTokens * replicaKvBytesPerToken(model, hw.kvDtype, hw.tp)) / (r - latency);
}

/**
 * Mooncake FAST'25 Eq. 2, for comparison: the smallest B (bytes/s) with B/G > 2·d·s / (gqa·(a·p·d + b·d²)).
 * `flops` is G, the cluster's FLOP/s; the paper's Table 1 uses 8 × 312 TFLOPS for 8 × A800.
 */
export function mooncakeMinBandwidth(args: {
  hidden: number;
  gqa: number;
  bytesPerElem: number;
  flops: number;
  prefixTokens: number;
  a?: number;
  b?: number;
}): number {
  const { hidden: d, gqa, bytesPerElem: s, flops: G, prefixTokens: p } = args;
  const a = args.a ?? 4;
  const b = args.b ?? 22;
  return (G * 2 * d * s) / (gqa * (a * p * d + b * d * d));
}

interface Coefficients {
  /** λ − all-reduce latency total − iteration overhead (the fixed part of reload − recompute beyond the max). */
  lambda: number;
  /** k·ρ / B − all-reduce seconds per token. */
  s: number;
  G: number;
  /** Attention FLOP/s. */
  Ga: number;
  M: number;
  A: number;
  body2: number;
  head: number;
  /** KV bytes per token × replication (written during prefill). */
  kvWrite: number;
  /** weight bytes: always-read and routed (all experts) */
  wAlways: number;
  wRouted: number;
  /** probability a routed expert is NOT touched by one token */
  q: number;
}

function coefficients(model: ModelSpec, hw: HardwareConfig, path: ReloadPath): Coefficients {
  checkPath(path);
  const bytes = DTYPE_BYTES[hw.weightDtype];
  const split = weightSplit(model);
  return {
    lambda: path.latency - iterationFixedTime(model, hw),
    s: replicaKvBytesPerToken(model, hw.kvDtype, hw.tp) / path.bandwidth - allReducePerTokenTime(model, hw),
    G: effectiveFlops(hw),
    Ga: effectiveAttentionFlops(hw),
    M: effectiveMemBandwidth(hw),
    A: attentionFlopsPerPair(model, 'prefill'),
    body2: 2 * bodyParams(model),
    head: 2 * embeddingParams(model),
    kvWrite: replicaKvBytesPerToken(model, hw.kvDtype, hw.tp),
    wAlways: split.always * bytes,
    wRouted: split.routed * bytes,
    q: 1 - split.touchProbability,
  };
}

function computeBranch(c: Coefficients, p: number): number {
  return (c.body2 * p + c.head) / c.G + ((c.A / 2) * (p * p + p)) / c.Ga;
}
function memoryBranch(c: Coefficients, p: number): number {
  const touched = c.wRouted > 0 ? -Math.expm1(p * Math.log(c.q)) : 0;
  return (c.wAlways + c.wRouted * touched + c.kvWrite * p) / c.M;
}

/** A duration for the explanation text: µs below 1 ms, ms below 1 s, else s; 3 significant digits. */
const fmtTime = (s: number) =>
  s === 0
    ? '0 s'
    : s < 1e-3
      ? `${Number((s * 1e6).toPrecision(3))} µs`
      : s < 1
        ? `${Number((s * 1e3).toPrecision(3))} ms`
        : `${Number(s.toPrecision(3))} s`;
/** Whole tokens with thousands separators (no Intl: identical in every runtime). */
const fmtTok = (p: number) => String(Math.round(p)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * Where reload and recompute of a p-token prefix cost the same, for p in (0, maxTokens] (default: the model's
 * context length); a prefix is at least 1 token. See the module comment for the method and the regimes.
 */
export function breakEven(
  model: ModelSpec,
  hw: HardwareConfig,
  path: ReloadPath,
  opts: { maxTokens?: number } = {},
): BreakEvenResult {
  const maxTokens = opts.maxTokens ?? model.maxContext;
  if (!(maxTokens > 1 && Number.isFinite(maxTokens)))
    throw new RangeError(`maxTokens must be more than 1, got ${maxTokens}`);
  const c = coefficients(model, hw, path);
  const d = (p: number) => reloadTime(model, hw, path, p) - recomputeTime(model, hw, p);
  const rel = 1e-9;

  // Compute branch: d_c(p) = −A/(2G_a)·p² + (s' − 2·body/G − A/(2G_a))·p + (λ' − 2VD/G).
  const dc = (p: number) => c.lambda + c.s * p - computeBranch(c, p);
  const ddc = (p: number) => c.s - c.body2 / c.G - (c.A * p + c.A / 2) / c.Ga;
  const candidates: number[] = [];
  for (let p of quadraticRoots(
    -c.A / (2 * c.Ga),
    c.s - c.body2 / c.G - c.A / (2 * c.Ga),
    c.lambda - c.head / c.G,
  )) {
    if (!(p > 0) || !Number.isFinite(p)) continue;
    p = polish(dc, ddc, p);
    if (computeBranch(c, p) >= memoryBranch(c, p) * (1 - rel)) candidates.push(p);
  }
  // Memory branch: d_m(p) = α + β·p + γ·q^p.
  const alpha = c.lambda - (c.wAlways + c.wRouted) / c.M;
  const beta = c.s - c.kvWrite / c.M;
  const gamma = c.wRouted / c.M;
  const L = c.wRouted > 0 ? Math.log(c.q) : 0;
  const dm = (p: number) => c.lambda + c.s * p - memoryBranch(c, p);
  const ddm = (p: number) => beta + (gamma > 0 ? gamma * L * Math.exp(L * p) : 0);
  for (let p of expLinearRoots(alpha, beta, gamma, L)) {
    if (!(p > 0) || !Number.isFinite(p)) continue;
    p = polish(dm, ddm, p);
    if (memoryBranch(c, p) >= computeBranch(c, p) * (1 - rel)) candidates.push(p);
  }
  candidates.sort((x, y) => x - y);
  const unique: number[] = [];
  for (const p of candidates) if (!unique.length || p - unique[unique.length - 1] > rel * p) unique.push(p);

  // Keep only sign changes: sample d inside each interval the candidates delimit (on the whole half-line), and
  // drop a candidate whose two sides have the same sign (a tangency or a root of an inactive branch).
  const signAt = (p: number) => Math.sign(d(p));
  const bounds = [0, ...unique];
  const sampleSigns: number[] = [];
  for (let i = 0; i < bounds.length; i++) {
    const lo = bounds[i];
    const hi = i + 1 < bounds.length ? bounds[i + 1] : Math.max(2 * lo, lo + 1, maxTokens);
    sampleSigns.push(signAt(lo === 0 ? hi / 2 : Math.sqrt(lo * hi)));
  }
  const all: number[] = [];
  for (let i = 0; i < unique.length; i++) if (sampleSigns[i] !== sampleSigns[i + 1]) all.push(unique[i]);
  // A prefix is at least one token: the continuous extension below 1 (a MoE touching a fraction of an expert)
  // has no meaning, so crossings there are not reported.
  const crossings = all.filter((p) => p > 1 && p <= maxTokens);
  const beyond = all.filter((p) => p > maxTokens);

  // Sign of d on each interval of [1, maxTokens] between crossings (negative: reload wins).
  const segBounds = [1, ...crossings, maxTokens];
  const signs: number[] = [];
  for (let i = 0; i + 1 < segBounds.length; i++) signs.push(signAt((segBounds[i] + segBounds[i + 1]) / 2));
  const pattern = signs.map((x) => (x < 0 ? '-' : '+')).join('');
  const regime: BreakEvenRegime =
    pattern === '-'
      ? 'reload-always-wins'
      : pattern === '+'
        ? 'recompute-always-wins'
        : pattern === '+-'
          ? 'reload-wins-above'
          : pattern === '-+'
            ? 'reload-wins-below'
            : pattern === '-+-'
              ? 'recompute-wins-between'
              : pattern === '+-+'
                ? 'reload-wins-between'
                : 'mixed';

  const floor = prefillCost(model, hw, 1, 0).time;
  const reloadPerToken = replicaKvBytesPerToken(model, hw.kvDtype, hw.tp) / path.bandwidth;
  const perTokStart = perTokenPrefillTime(model, hw, 0);
  const perTokEnd = perTokenPrefillTime(model, hw, maxTokens);
  const head =
    `Reload costs ${fmtTime(path.latency)} + ${fmtTime(reloadPerToken)}/token; recompute has a floor of ${fmtTime(floor)} (streaming the weights a token touches${c.wRouted > 0 ? ', rising as a longer prefix touches more experts' : ''}, plus the iteration overhead${hw.tp > 1 ? ' and all-reduce latency' : ''}) ` +
    `and then costs ${fmtTime(perTokStart)}/token at the start of the context, rising to ${fmtTime(perTokEnd)}/token at ${fmtTok(maxTokens)} tokens (attention). `;
  const x = crossings.map(fmtTok);
  const middleReason =
    crossings.length === 2 && prefillCost(model, hw, (crossings[0] + crossings[1]) / 2, 0).bound === 'memory'
      ? "recompute is still memory-bound, flat at the weight-streaming floor, while reload's cost grows with the prefix"
      : 'the link costs more per token than prefill compute';
  const tail: Record<BreakEvenRegime, string> = {
    'reload-always-wins': `Reload is faster for every prefix up to ${fmtTok(maxTokens)} tokens.`,
    'recompute-always-wins': `Recompute is faster for every prefix up to ${fmtTok(maxTokens)} tokens: the link's latency and per-token cost never beat prefill here.`,
    'reload-wins-above': `Recompute is faster below ${x[0]} tokens (the link's fixed latency dominates); reload wins above.`,
    'reload-wins-below': `Reload wins below ${x[0]} tokens (recompute pays its floor whatever the length); recompute wins above, up to ${fmtTok(maxTokens)}${beyond.length ? ` (reload wins again beyond ${fmtTok(beyond[0])} tokens, past the context)` : ''}.`,
    'recompute-wins-between': `Reload wins below ${x[0]} tokens (recompute pays its floor whatever the length), recompute wins between ${x[0]} and ${x[1]} (${middleReason}), and reload wins again above ${x[1]} (recompute's per-token cost grows with the prefix).`,
    'reload-wins-between': `Reload wins only between ${x[0]} and ${x[1]} tokens.`,
    mixed: `Reload and recompute alternate at ${x.join(', ')} tokens.`,
  };
  return {
    crossings,
    crossingsBeyondDomain: beyond,
    regime,
    explanation: head + tail[regime],
    maxTokens,
    reloadLatency: path.latency,
    reloadSecondsPerToken: reloadPerToken,
    recomputeFloorSeconds: floor,
    recomputeSecondsPerTokenAtStart: perTokStart,
    recomputeSecondsPerTokenAtEnd: perTokEnd,
  };
}
