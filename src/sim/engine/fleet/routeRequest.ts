/**
 * A request past the front door (frontDoor.ts) meets the router: the replicas' loads read as the router sees them,
 * its decision (or the prefill and decode pools', disagg.ts), the decision written down, and the request queued on
 * its replica or rejected there when that replica's waiting queue is full. Apart from engine.ts because it is one
 * step with its own inputs (the loads, the router's generator, the last scrape), not the event loop's.
 */
import { admits } from './admission';
import type { FleetSim } from './engine';
import { readLoads } from './loads';
import type { Req } from './request';
import { ROUTE_REASON, type RouteDecision } from './router';
import type { SessionRt } from './sessionRecord';

/** Route r now (`rt`: its session's record, null for a request of no session). */
export function routeRequest(sim: FleetSim, r: Req, rt: SessionRt | null): void {
  if (sim.disagg) {
    const p = sim.disagg.route(r, sim.routerRng);
    place(sim, r, rt, p.decision, p.decodeOn);
    return;
  }
  const router = sim.router;
  readLoads(sim.replicas, 0, sim.loads, sim.scraped, router.usesCache || router.needsKvUsage === true);
  const blockSize = sim.rs.blockSize;
  // A view that keys prompts its own way (llm-d's index of the chat messages) is matched and fed its own keys.
  const keys = router.usesCache ? (sim.view.promptKeys?.(r.segs, r.promptTokens) ?? null) : null;
  const hashes = keys ? keys.hashes : r.hashes;
  const promptBlocks = keys ? keys.count : Math.floor(r.promptTokens / blockSize);
  const d = router.route(
    {
      session: r.session >= 0 ? r.session : r.id + 2 ** 30,
      request: r.id,
      hashes,
      promptBlocks,
      promptTokens: r.promptTokens,
      blockSize,
    },
    { now: sim.now, loads: sim.loads, view: sim.view, rng: sim.routerRng },
  );
  if (router.usesCache) sim.view.routed(d.replica, hashes, promptBlocks);
  place(sim, r, rt, d, d.replica);
}

/** Queue r on d.replica; `keepOn` is where its session's KV will live (its decode worker when disaggregated). */
function place(sim: FleetSim, r: Req, rt: SessionRt | null, d: RouteDecision, keepOn: number): void {
  const now = sim.now;
  const rs = sim.rs;
  if (rs.frameIntervalS > 0) sim.routes.push(now, r.session, r.id, d);
  const code = ROUTE_REASON[d.reason];
  sim.routeCounts.set(code, (sim.routeCounts.get(code) ?? 0) + 1);
  const cols = sim.cols;
  const rep = sim.replicas[d.replica];
  cols.replica.set(r.id, d.replica);
  // The decision's reason travels with the request, so a run without frames keeps it too.
  cols.routeReason.set(r.id, code);
  cols.routeMatched.set(r.id, d.matchedBlocks);
  cols.routeQueued.set(r.id, rep.outstandingRequests);
  if (!admits(rep.waiting.length, rs.maxWaiting)) {
    r.replica = d.replica;
    sim.fail(r, 4, `rejected: the replica's waiting queue was full (scheduler.maxWaiting ${rs.maxWaiting})`);
    return;
  }
  if (rt && rt.heldOn >= 0) {
    // Held elsewhere: let go there. Held here: the replica keeps holding until the request is admitted.
    if (rt.heldOn !== keepOn) sim.replicas[rt.heldOn].pauses.unhold(r.session, 'cache');
    rt.heldOn = -1;
    rt.pauseGen++;
  }
  sim.reqs.set(r.id, r);
  rep.enqueue(r);
}
