/**
 * Lesson 07.12 (agents per megawatt): the fleet-economics arithmetic, pure and unit-tested.
 *
 *  - SLOs first: the largest concurrency whose TTFT and TPOT p90 both meet the objectives (`maxFeasible`);
 *  - agents per node and per megawatt of facility power: node power × PUE (`agentsPerNode`, `agentsPerMW`);
 *  - the per-session cost model: GPU-seconds × price of a GPU-hour / 3600, plus the energy those GPU-seconds
 *    draw (node power per GPU × PUE × time × price of a kWh), with the compute part split into prefill,
 *    decode and idle-held KV (`sessionCost`).
 *
 * Every price (GPU-hour, kWh) and the PUE are parameters: assumptions the learner sets, never constants here.
 * Units: seconds, watts, US dollars.
 */

/** One point of a concurrency sweep: the latency percentiles the simulator measured at `concurrency`. */
export interface SloPoint {
  concurrency: number;
  ttftP90S: number;
  tpotP90S: number;
}

export interface Slo {
  ttftP90S: number;
  tpotP90S: number;
}

/** Whether a point meets both objectives (p90 at or under each). */
export function meetsSlo(p: SloPoint, slo: Slo): boolean {
  return p.ttftP90S <= slo.ttftP90S && p.tpotP90S <= slo.tpotP90S;
}

/**
 * The largest concurrency of a sweep that meets both SLOs, taking every point below it as meeting them too:
 * the first failure ends the search (latency grows with load; a lucky point past a failure is noise, not
 * capacity). 0 when even the smallest concurrency fails.
 */
export function maxFeasible(points: readonly SloPoint[], slo: Slo): number {
  const sorted = [...points].sort((a, b) => a.concurrency - b.concurrency);
  let best = 0;
  for (const p of sorted) {
    if (!meetsSlo(p, slo)) break;
    best = p.concurrency;
  }
  return best;
}

/** Replicas of `tp` GPUs that fit on a node of `gpusPerNode` GPUs. */
export function replicasPerNode(gpusPerNode: number, tp: number): number {
  if (!(tp >= 1 && gpusPerNode >= 1)) throw new RangeError('gpusPerNode and tp must be ≥ 1');
  return Math.floor(gpusPerNode / tp);
}

/** Concurrent agents one node sustains: agents per replica × replicas per node. */
export function agentsPerNode(agentsPerReplica: number, gpusPerNode: number, tp: number): number {
  return agentsPerReplica * replicasPerNode(gpusPerNode, tp);
}

/** Facility power one node draws, W: its maximum power × PUE (power usage effectiveness, ≥ 1). */
export function facilityWattsPerNode(nodePowerW: number, pue: number): number {
  if (!(nodePowerW > 0)) throw new RangeError(`nodePowerW must be > 0, got ${nodePowerW}`);
  if (!(pue >= 1)) throw new RangeError(`PUE must be ≥ 1, got ${pue}`);
  return nodePowerW * pue;
}

/** Nodes per megawatt of facility power (fractional). */
export function nodesPerMW(nodePowerW: number, pue: number): number {
  return 1e6 / facilityWattsPerNode(nodePowerW, pue);
}

/** Concurrent agents per megawatt of facility power: agents per node / (node power × PUE in MW). */
export function agentsPerMW(agentsPerNodeValue: number, nodePowerW: number, pue: number): number {
  return agentsPerNodeValue * nodesPerMW(nodePowerW, pue);
}

export interface CostInputs {
  /** GPU-seconds one session uses (the simulator's attribution: iteration time × tp, shared by tokens). */
  gpuSeconds: number;
  /** Price of one GPU-hour, $ (an assumption: set your own). */
  gpuHourUSD: number;
  /** Node maximum power, W, and its GPUs: the power one GPU-second draws is nodePowerW / gpusPerNode. */
  nodePowerW: number;
  gpusPerNode: number;
  pue: number;
  /** Price of one kWh at the meter, $ (an assumption). */
  kwhUSD: number;
  /** Share of the session's GPU-seconds spent on prefill tokens (the rest on decode), 0..1. */
  prefillShare: number;
  /** Share of the replica's KV budget pinned by idle (paused) sessions, time mean, 0..1. */
  heldShare: number;
}

export interface SessionCost {
  /** GPU rent: gpuSeconds × gpuHourUSD / 3600. */
  computeUSD: number;
  /** The compute part split: prefill, decode (by the GPU-seconds), idle-held KV (by the KV budget share). */
  prefillUSD: number;
  decodeUSD: number;
  idleHeldUSD: number;
  /** Energy: gpuSeconds × (nodePowerW / gpusPerNode) × PUE, in kWh, × kwhUSD. */
  energyKWh: number;
  energyUSD: number;
  totalUSD: number;
}

/**
 * The per-session cost model. GPU rent is gpuSeconds × price / 3600. It is split three ways: the share
 * `heldShare` of it goes to idle-held KV (the part of the replica's memory, and so of its concurrency, that
 * paused sessions occupy); the rest is split between prefill and decode by their GPU-seconds. Energy is
 * counted on top, at the node's maximum power per GPU times the PUE (the rent may already include power: set
 * kwhUSD to 0 then).
 */
export function sessionCost(c: CostInputs): SessionCost {
  for (const [k, v] of Object.entries(c))
    if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${k} must be a finite number ≥ 0, got ${v}`);
  if (c.prefillShare > 1 || c.heldShare > 1) throw new RangeError('shares must be ≤ 1');
  const computeUSD = (c.gpuSeconds * c.gpuHourUSD) / 3600;
  const idleHeldUSD = computeUSD * c.heldShare;
  const busy = computeUSD - idleHeldUSD;
  const prefillUSD = busy * c.prefillShare;
  const decodeUSD = busy - prefillUSD;
  const energyKWh = (c.gpuSeconds * (c.nodePowerW / c.gpusPerNode) * c.pue) / 3.6e6;
  const energyUSD = energyKWh * c.kwhUSD;
  return {
    computeUSD,
    prefillUSD,
    decodeUSD,
    idleHeldUSD,
    energyKWh,
    energyUSD,
    totalUSD: computeUSD + energyUSD,
  };
}

/** Sessions per hour a fleet of `agents` concurrent agents completes when a session lasts `sessionWallS`. */
export function sessionsPerHour(agents: number, sessionWallS: number): number {
  return sessionWallS > 0 ? (agents * 3600) / sessionWallS : 0;
}
