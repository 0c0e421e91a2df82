/**
 * Sorts that yield (engine/cooperative.ts), for the few sorts of a long lesson computation that are long
 * themselves (07.01 at its maxima: 115,000 requests by arrival, the same number of prompt lengths for the medians,
 * tens of ms each in one call). A bottom-up merge sort: stable, so for a comparator it gives exactly what the stable
 * `Array.prototype.sort` gives; for numbers it uses the order `Float64Array.prototype.sort` uses (−0 before +0,
 * NaN last), so a sorted copy is the same array, element for element. Elements moved count as units of work.
 */
import { Pace, type Steps } from './cooperative';

/** Elements merged between yields: a few ms of work. */
export const SORT_ELEMENTS_PER_YIELD = 200_000;

/** The order of Float64Array.prototype.sort: numeric, −0 before +0, NaN after everything. */
export function numberBefore(a: number, b: number): boolean {
  if (a < b) return true;
  if (a === b) return a === 0 && 1 / a < 0 && 1 / b > 0;
  return b !== b && a === a;
}

/**
 * Merge sort `items` in place (a scratch array of the same length), `before(a, b)` true when a goes strictly before b.
 */
function* mergeSortSteps<A extends { length: number; [i: number]: V }, V>(
  items: A,
  scratch: A,
  before: (a: V, b: V) => boolean,
  pace: Pace,
): Steps<A> {
  const n = items.length;
  let src = items;
  let dst = scratch;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      // Stable: on a tie the left run's element goes first.
      while (i < mid && j < hi) dst[k++] = before(src[j], src[i]) ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
      if (pace.due(hi - lo)) yield;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== items) for (let i = 0; i < n; i++) items[i] = src[i];
  return items;
}

/** A sorted copy of `values`, equal element for element to `Float64Array.from(values).sort()`. */
export function* sortedNumbersSteps(
  values: ArrayLike<number>,
  pace = new Pace(SORT_ELEMENTS_PER_YIELD),
): Steps<Float64Array> {
  const a = values instanceof Float64Array ? values.slice() : Float64Array.from(values);
  return yield* mergeSortSteps<Float64Array, number>(a, new Float64Array(a.length), numberBefore, pace);
}

/** Sort `items` in place by `compare`, as the stable `items.sort(compare)` does. */
export function* sortSteps<T>(
  items: T[],
  compare: (a: T, b: T) => number,
  pace = new Pace(SORT_ELEMENTS_PER_YIELD),
): Steps<T[]> {
  return yield* mergeSortSteps<T[], T>(items, new Array<T>(items.length), (a, b) => compare(a, b) < 0, pace);
}
