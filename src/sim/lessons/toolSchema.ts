/**
 * Lesson 07.07, the tool schema tax over a session: tokens prefilled and dollars paid for a tool block, with and
 * without a prefix cache, when the block is rewritten every `changeEvery` turns (cache-write and cache-read
 * multipliers). The definitions as text are toolDefinitions.ts, where the block sits in the prompt toolLayouts.ts.
 */

export interface CachePricing {
  /** Base input price, $ per million tokens. */
  inputPerMTok: number;
  /** Cache-write multiplier on the base price (Anthropic 5-minute TTL: 1.25). */
  writeMultiplier: number;
  /** Cache-read multiplier (Anthropic: 0.1). */
  readMultiplier: number;
}

export interface SessionToolCost {
  turns: number;
  toolTokens: number;
  /** Turns on which the tool block is (re)written to the cache: the first, and every change. */
  writes: number;
  reads: number;
  prefilledNoCache: number;
  prefilledCached: number;
  costNoCache: number;
  costCached: number;
  /** 1 − costCached / costNoCache. */
  saving: number;
}

/**
 * The tool block of `toolTokens` tokens over `turns` requests. Without a cache it is prefilled (and billed at
 * the base price) every turn. With one it is written on turn 1 and on every change (every `changeEvery` turns;
 * 0 = never changes), billed at the write multiplier, and read from the cache on the other turns.
 */
export function sessionToolCost(
  toolTokens: number,
  turns: number,
  changeEvery: number,
  price: CachePricing,
): SessionToolCost {
  if (!(Number.isFinite(toolTokens) && toolTokens >= 0))
    throw new RangeError(`toolTokens must be ≥ 0, got ${toolTokens}`);
  if (!(Number.isInteger(turns) && turns >= 1))
    throw new RangeError(`turns must be a whole number ≥ 1, got ${turns}`);
  if (!(Number.isInteger(changeEvery) && changeEvery >= 0))
    throw new RangeError(`changeEvery must be a whole number ≥ 0, got ${changeEvery}`);
  const writes = changeEvery > 0 ? Math.ceil(turns / changeEvery) : 1;
  const reads = turns - writes;
  const perTok = price.inputPerMTok / 1e6;
  const costNoCache = turns * toolTokens * perTok;
  const costCached = toolTokens * perTok * (price.writeMultiplier * writes + price.readMultiplier * reads);
  return {
    turns,
    toolTokens,
    writes,
    reads,
    prefilledNoCache: turns * toolTokens,
    prefilledCached: writes * toolTokens,
    costNoCache,
    costCached,
    saving: costNoCache > 0 ? 1 - costCached / costNoCache : 0,
  };
}

/** Cumulative tool-block tokens prefilled and dollars paid after each turn, without and with the cache. */
export function sessionToolSeries(
  toolTokens: number,
  turns: number,
  changeEvery: number,
  price: CachePricing,
): {
  turn: number;
  prefilledNoCache: number;
  prefilledCached: number;
  costNoCache: number;
  costCached: number;
}[] {
  const perTok = price.inputPerMTok / 1e6;
  const out = [];
  let pc = 0;
  let cc = 0;
  for (let t = 1; t <= turns; t++) {
    const write = t === 1 || (changeEvery > 0 && (t - 1) % changeEvery === 0);
    if (write) pc += toolTokens;
    cc += toolTokens * perTok * (write ? price.writeMultiplier : price.readMultiplier);
    out.push({
      turn: t,
      prefilledNoCache: t * toolTokens,
      prefilledCached: pc,
      costNoCache: t * toolTokens * perTok,
      costCached: cc,
    });
  }
  return out;
}
