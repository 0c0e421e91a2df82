/**
 * Cut an array to its first n entries (`a.length = n` when n is smaller) but keep its storage. Setting `length`
 * is a call into the runtime even when it changes nothing, and shrinking a lot makes V8 drop or trim the backing
 * store, so the next writes allocate it again; pop is inlined and never shrinks it. For arrays the hot paths
 * rewrite by index and cut to length after: only the excess over the last use is popped.
 */
export function keepFirst(a: unknown[], n: number): void {
  while (a.length > n) a.pop();
}
