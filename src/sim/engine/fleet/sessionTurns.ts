/**
 * A request's end as its session sees it: a finished turn counted, the pause policy applied (a session whose KV
 * stays pinned is held on its replica, with its TTL), then the next turn or the session's end; a failed request
 * ends its session and lets go of KV held for it; a TTL's expiry lets go of a held session. Apart from engine.ts,
 * which records the request itself (its columns, its client slot): this is the session's bookkeeping, not the
 * request's.
 */
import type { FleetSim } from './engine';
import type { Req } from './request';
import type { SessionRt } from './sessionRecord';
import { afterHold } from './toolPauses';

/** r finished (already recorded): its session's counts, its pause, then its next turn or its end. */
export function turnDone(sim: FleetSim, r: Req): void {
  const rt = r.session >= 0 ? sim.sessions[r.session] : undefined;
  if (rt) {
    rt.turns++;
    rt.gpuSeconds += r.gpuSeconds;
  }
  const turns = sim.turns;
  if (!rt || !turns.hasTurns(r)) {
    sim.replicas[r.replica].pauses.pause(r, false);
    return;
  }
  rt.current = null;
  const continues = turns.afterTurn(r, rt);
  pause(sim, r, rt, continues);
  if (continues) turns.scheduleNext();
  else endSession(sim, r.session, false);
}

/** r failed (already recorded): KV held for its session is let go, and the session ends. */
export function turnFailed(sim: FleetSim, r: Req): void {
  const rt = r.session >= 0 ? sim.sessions[r.session] : undefined;
  if (rt && rt.heldOn >= 0) {
    // Failed before it reached the replica holding its session's KV (rejected, timed out on the way): let go.
    sim.replicas[rt.heldOn].pauses.unhold(r.session, 'cache');
    rt.heldOn = -1;
    rt.pauseGen++;
  }
  if (rt && !rt.done) {
    rt.current = null;
    endSession(sim, r.session, true);
  }
}

/** The `ttl-expire` event: the session is let go unless it was resumed (or held again) since. */
export function ttlExpired(sim: FleetSim, session: number, pauseGen: number): void {
  const rt = sim.sessions[session];
  if (rt && rt.heldOn >= 0 && rt.pauseGen === pauseGen) {
    sim.replicas[rt.heldOn].pauses.unhold(session, afterHold(sim.rs.toolPause));
    rt.heldOn = -1;
  }
}

/** Apply the pause policy to a session's finished request; a session whose KV stays pinned is held there. */
function pause(sim: FleetSim, r: Req, rt: SessionRt, continues: boolean): void {
  if (!sim.replicas[r.replica].pauses.pause(r, continues)) return;
  rt.heldOn = r.replica;
  rt.pauseGen++;
  const p = sim.rs.toolPause;
  if (p.kind === 'ttl') sim.schedule(sim.now + p.ttlS, 'ttl-expire', r.session, rt.pauseGen);
}

function endSession(sim: FleetSim, index: number, dropped: boolean): void {
  const rt = sim.sessions[index];
  rt.done = true;
  rt.dropped = dropped;
  rt.end = sim.now;
  rt.s = null; // free the context
  rt.hasher = null;
  rt.tails = null;
  sim.router.sessionEnded?.(index);
  sim.turns.sessionEnded();
}
