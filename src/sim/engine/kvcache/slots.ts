/**
 * Sizing and home slots of the open-addressing tables keyed by block hashes (hashMap.ts, which the
 * block store and the fleet's page index use, and the event tables in events.ts): one definition, so the tables cannot drift apart in how they spread keys.
 */

const TWO32 = 4294967296;

/** Slots for a table meant to hold `keys` keys at most half full: a power of two, at least 16. */
export function slotCount(keys: number): number {
  let cap = 16;
  while (cap < keys * 2) cap *= 2;
  return cap;
}

/** The shift that takes a 32-bit product to a slot of a table of `cap` slots (a power of two). */
export function slotShift(cap: number): number {
  return 32 - Math.log2(cap);
}

/** Home slot of a block hash (a 52-bit non-negative integer): Fibonacci hashing of its two 32-bit halves. */
export function homeSlot(h: number, shift: number): number {
  const lo = h | 0; // ToInt32: the low 32 bits, exactly (h % 2³² | 0, without a runtime call for `%`)
  const hi = Math.floor(h / TWO32) | 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> shift;
}
