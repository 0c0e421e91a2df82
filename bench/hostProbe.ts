/**
 * How fast this host is right now at the two things the fleet simulator's time depends on: a chain of dependent
 * loads spread over 32 MiB (each one a cache miss and, with 4 KiB pages, a TLB miss: a hash table's probe, a block
 * record read by id) and a loop of integer arithmetic that stays in registers.
 *
 * Why the bench prints it: on the shared 2-core hosts the fleet bench runs on, the same build's steady run of the
 * 16 × 1,000 fleet took 1.0 s in one hour and 2.0 s in the next while the arithmetic loop moved by 3% (docs/
 * performance.md, thirteenth round). A figure beside its goal means little without the host's memory latency at
 * the time; printed before and after the runs, it says whether the host stayed the same while they ran.
 */
import { median } from './util';

export interface HostProbe {
  /** Nanoseconds per dependent load over 32 MiB (median of 5 chains of a million loads). */
  loadNs: number;
  /** Milliseconds for 30 million multiply-adds in a register (median of 5). */
  arithmeticMs: number;
}

const WORDS = 1 << 23; // 32 MiB of Int32

/** A random cyclic permutation of 0 … n − 1 (Sattolo's algorithm; a seeded generator, so every run walks the same chain). */
function cycle(n: number): Int32Array {
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) next[i] = i;
  let seed = 0x2545f491;
  for (let i = n - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) | 0;
    const j = (seed >>> 0) % i;
    const t = next[i];
    next[i] = next[j];
    next[j] = t;
  }
  return next;
}

function chase(next: Int32Array, loads: number): number {
  let p = 0;
  for (let i = 0; i < loads; i++) p = next[p];
  return p;
}

function arithmetic(steps: number): number {
  let x = 1;
  for (let i = 0; i < steps; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  return x;
}

export function probeHost(): HostProbe {
  const next = cycle(WORDS);
  let sink = chase(next, 100_000) ^ arithmetic(1_000_000); // warm up both loops (compiled before they are timed)
  const loads: number[] = [];
  const sums: number[] = [];
  for (let k = 0; k < 5; k++) {
    let t = performance.now();
    sink ^= chase(next, 1_000_000);
    loads.push(((performance.now() - t) * 1e6) / 1_000_000);
    t = performance.now();
    sink ^= arithmetic(30_000_000);
    sums.push(performance.now() - t);
  }
  if (sink === 0x7fffffff) console.log(''); // the loops' results are observable, so they cannot be dropped
  return { loadNs: median(loads), arithmeticMs: median(sums) };
}

export function describeProbe(p: HostProbe): string {
  return `dependent load over 32 MiB ${p.loadNs.toFixed(0)} ns, 30 M multiply-adds ${p.arithmeticMs.toFixed(0)} ms`;
}
