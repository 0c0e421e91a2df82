/** The typed arrays the engine keeps its tables' columns in. */
type Column = Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

/**
 * A column grown: a new array of the same type, `length` long, holding `a` at its start (zeros after it). The
 * tables that keep a record's fields in parallel columns (the event queue, the page index, the block store, a run's
 * members) grow every column with it when they run out of rows.
 */
export function widened<T extends Column>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}
