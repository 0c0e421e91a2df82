/**
 * Seeded pseudo-random numbers for the simulation core.
 *
 * sfc32 (Chris Doty-Humphrey's "Small Fast Counting" generator, PractRand-clean at 32 bits), seeded through
 * splitmix32 so that neighbouring integer seeds give unrelated streams. Pure 32-bit integer arithmetic
 * (Math.imul, >>>), so a seed gives the same stream in Node and in every browser.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** Exponential with the given mean. */
  exponential(mean: number): number;
  /** Log-normal given the median and the log-space sigma. */
  lognormal(median: number, sigma: number): number;
  /** A new independent generator derived from this one (for sub-streams that must not perturb the parent). */
  fork(): Rng;
  /** The internal state, so a run can be checkpointed and replayed. */
  state(): [number, number, number, number];
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number, state?: [number, number, number, number]): Rng {
  let a: number, b: number, c: number, d: number;
  if (state) {
    [a, b, c, d] = state.map((x) => x >>> 0) as [number, number, number, number];
  } else {
    const sm = splitmix32(Number.isFinite(seed) ? Math.trunc(seed) : 0);
    a = sm();
    b = sm();
    c = sm();
    d = sm();
    // Discard the first outputs: sfc32 mixes its state over ~12 rounds.
    for (let i = 0; i < 12; i++) nextU32();
  }
  function nextU32(): number {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  }
  let spareNormal: number | null = null;
  const rng: Rng = {
    next: () => nextU32() / 4294967296,
    int: (n) => Math.floor((nextU32() / 4294967296) * n),
    uniform: (lo, hi) => lo + (hi - lo) * (nextU32() / 4294967296),
    normal() {
      if (spareNormal !== null) {
        const v = spareNormal;
        spareNormal = null;
        return v;
      }
      let u = 0;
      while (u === 0) u = nextU32() / 4294967296;
      const v = nextU32() / 4294967296;
      const r = Math.sqrt(-2 * Math.log(u));
      spareNormal = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    exponential(mean) {
      let u = 0;
      while (u === 0) u = nextU32() / 4294967296;
      return -mean * Math.log(u);
    },
    lognormal(median, sigma) {
      return median * Math.exp(sigma * rng.normal());
    },
    fork: () => createRng(nextU32()),
    state: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
  };
  return rng;
}
