/**
 * V8 compiles a function against the history of the fields it reads: a field that has only ever held its first value
 * is taken as a constant, and the first object to change it deoptimizes every function compiled against it. A field
 * that changes only late in a run (a request's `target` at the first preemption, a session's record when the first
 * session ends) so sent the largest functions of the fleet (admission, the iteration loop) back to the interpreter
 * after they had been compiled, to be compiled again: a fresh 16 × 1,000 process spent 4–6% more CPU on that.
 *
 * `settleFields(o, later)` gives each listed field of `o` a value of the kind it will hold later, then its own value
 * back, so the first record made settles what its fields may do before anything reads them; nothing else changes.
 * A value of the same kind matters: a small integer stays one, a time (a double) is given a double.
 * Measured in docs/performance.md, "Twelfth round".
 */
export function settleFields<T extends object>(o: T, later: Partial<T>): void {
  const rec = o as Record<string, unknown>;
  for (const [k, v] of Object.entries(later)) {
    // Adding a field would give the record another shape, the opposite of settling it.
    if (!(k in rec)) throw new Error(`settleFields: the record has no field ${k}`);
    const own = rec[k];
    rec[k] = v;
    rec[k] = own;
  }
}
