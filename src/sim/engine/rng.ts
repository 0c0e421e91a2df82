/**
 * Seeded pseudo-random numbers for the simulation core.
 *
 * sfc32 (Chris Doty-Humphrey's "Small Fast Counting" generator, PractRand-clean at 32 bits), seeded through
 * splitmix32 so that neighbouring integer seeds give unrelated streams. Pure 32-bit integer arithmetic
 * (Math.imul, >>>), so a seed gives the same stream in Node and in every browser.
 */
import { limit } from './limits';

/** The seeds a run takes: what a request or a shared link may carry, refused in the reader's words outside it. */
export const SEED_LIMIT = limit('the seed', 0, 2 ** 31 - 1, { integer: true });

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
  return new Sfc32(seed, state);
}

/**
 * One class for every stream, not an object of closures per stream: the fleet makes a generator per session and
 * per replica, and with closures each was a function of its own, so every call site that draws from more than a
 * few of them (a session's token counts, its tool times) called a different target each time, which the optimizing
 * compiler cannot inline. Methods on one prototype are one target. The arithmetic is the closures' exactly.
 */
class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal = 0;
  private hasSpare = false;

  constructor(seed: number, state?: [number, number, number, number]) {
    if (state) {
      this.a = state[0] >>> 0;
      this.b = state[1] >>> 0;
      this.c = state[2] >>> 0;
      this.d = state[3] >>> 0;
    } else {
      const sm = splitmix32(Number.isFinite(seed) ? Math.trunc(seed) : 0);
      this.a = sm();
      this.b = sm();
      this.c = sm();
      this.d = sm();
      // Discard the first outputs: sfc32 mixes its state over ~12 rounds.
      for (let i = 0; i < 12; i++) this.nextU32();
    }
  }

  private nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.nextU32() / 4294967296;
  }

  int(n: number): number {
    return Math.floor((this.nextU32() / 4294967296) * n);
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * (this.nextU32() / 4294967296);
  }

  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spareNormal;
    }
    let u = 0;
    while (u === 0) u = this.nextU32() / 4294967296;
    const v = this.nextU32() / 4294967296;
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    this.hasSpare = true;
    return r * Math.cos(2 * Math.PI * v);
  }

  exponential(mean: number): number {
    let u = 0;
    while (u === 0) u = this.nextU32() / 4294967296;
    return -mean * Math.log(u);
  }

  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  fork(): Rng {
    return new Sfc32(this.nextU32());
  }

  state(): [number, number, number, number] {
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }
}
