/**
 * Real roots, in closed form, of the two shapes of equation the reload-vs-recompute break-even reduces to
 * (breakeven.ts): a quadratic (the compute branch) and α + β·p + γ·e^(L·p) (a MoE's memory branch, through the
 * Lambert W function), with a Newton polish for roots that lose digits to cancellation. Kept apart from the
 * break-even because they are plain numerics that know nothing of models, links or regimes.
 */

// Lambert W, real branches, from the logarithm of |z| so that huge or tiny arguments do not overflow.

/** Root of a monotone f on [lo, hi] by Newton steps safeguarded with bisection. */
function solveMonotone(
  f: (w: number) => number,
  df: (w: number) => number,
  lo: number,
  hi: number,
  w0: number,
): number {
  let flo = f(lo);
  let w = Math.min(hi, Math.max(lo, w0));
  for (let i = 0; i < 200; i++) {
    const fw = f(w);
    if (fw === 0) return w;
    if (Math.sign(fw) === Math.sign(flo)) {
      lo = w;
      flo = fw;
    } else hi = w;
    let next = w - fw / df(w);
    if (!(next > lo && next < hi) || !Number.isFinite(next)) next = (lo + hi) / 2;
    if (Math.abs(next - w) <= 1e-15 * Math.max(1, Math.abs(w))) return next;
    w = next;
  }
  return w;
}

/** W₀(z) for z > 0 given ln z. */
export function lambertW0FromLog(lnz: number): number {
  if (lnz < -30) return Math.exp(lnz); // W₀(z) = z − z² + …
  const f = (w: number) => w + Math.log(w) - lnz;
  const df = (w: number) => 1 + 1 / w;
  if (lnz <= 1) {
    const z = Math.exp(lnz);
    return solveMonotone(f, df, z / Math.E, 1, z / (1 + z));
  }
  return solveMonotone(f, df, 1, lnz, lnz - Math.log(lnz));
}

/** W₀(z) and W₋₁(z) for −1/e ≤ z < 0 given u = ln(−z) ≤ −1. */
export function lambertWNegFromLog(u: number): { w0: number; wm1: number } {
  if (u > -1) throw new RangeError('z < −1/e: no real Lambert W');
  const f = (w: number) => w + Math.log(-w) - u;
  const df = (w: number) => 1 + 1 / w;
  // Near the branch point z = −1/e the two branches meet at −1: w ≈ −1 ± sqrt(2(1 + e·z)).
  const onePlusEz = 1 - Math.exp(u + 1);
  const branchGuess = Math.sqrt(Math.max(0, 2 * onePlusEz));
  let w0: number;
  if (u < -30) w0 = -Math.exp(u);
  else {
    const z = -Math.exp(u);
    w0 = solveMonotone(f, df, -1, z, onePlusEz < 0.1 ? -1 + branchGuess : z);
  }
  const wm1 = solveMonotone(
    f,
    df,
    Math.min(2 * u, -1),
    Math.min(u, -1),
    onePlusEz < 0.1 ? -1 - branchGuess : u - Math.log(-u),
  );
  return { w0, wm1 };
}

/** Real roots of a·x² + b·x + c = 0, numerically stable; a double root is dropped (no sign change). */
export function quadraticRoots(a: number, b: number, c: number): number[] {
  if (a === 0) return b === 0 ? [] : [-c / b];
  const disc = b * b - 4 * a * c;
  if (!(disc > 0)) return [];
  const q = -0.5 * (b + (b >= 0 ? 1 : -1) * Math.sqrt(disc));
  const roots = [q / a];
  if (q !== 0) roots.push(c / q);
  return roots;
}

/** Roots of α + β·p + γ·e^(L·p) = 0 with γ ≥ 0, L < 0 (the memory branch of the break-even's d). */
export function expLinearRoots(alpha: number, beta: number, gamma: number, L: number): number[] {
  if (gamma === 0 || !(L < 0) || !Number.isFinite(L)) return beta === 0 ? [] : [-alpha / beta];
  if (beta === 0) return -alpha / gamma > 0 ? [Math.log(-alpha / gamma) / L] : [];
  const lnAbsZ = Math.log((gamma * -L) / Math.abs(beta)) - (L * alpha) / beta;
  const toP = (w: number) => -alpha / beta - w / L;
  if (beta < 0) return [toP(lambertW0FromLog(lnAbsZ))];
  if (lnAbsZ > -1) return [];
  if (lnAbsZ === -1) return []; // tangency
  const { w0, wm1 } = lambertWNegFromLog(lnAbsZ);
  return [toP(w0), toP(wm1)];
}

/** A few Newton steps on g to tighten a root found in closed form (guards against cancellation). */
export function polish(g: (p: number) => number, dg: (p: number) => number, p: number): number {
  let best = p;
  let gBest = Math.abs(g(p));
  for (let i = 0; i < 4 && gBest > 0; i++) {
    const d = dg(best);
    if (!(d !== 0 && Number.isFinite(d))) break;
    const next = best - g(best) / d;
    const gn = Math.abs(g(next));
    if (!(next > 0) || !(gn < gBest)) break;
    best = next;
    gBest = gn;
  }
  return best;
}
