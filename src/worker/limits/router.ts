/**
 * What 07.03's worker methods (src/worker/routerMethods.ts) accept for each request field a control sets, declared
 * once: the methods check these, the widgets' schemas (src/widgets/cache-router/schema.ts) offer ranges inside them.
 */
import { limit } from '../../sim/engine/limits';

export const ROUTER_LIMITS = {
  replicas: limit('the number of replicas', 1, 16, { integer: true, unit: 'replicas' }),
  sessionsPerS: limit('the rate of new sessions', 0.01, 8, { unit: 'sessions/s' }),
  /** SGLang's balance_abs_threshold (outstanding requests); its default is 64 in sglang-router 0.3.0. */
  loadThreshold: limit('the load threshold', 0, 1000, { unit: 'requests' }),
  poolGB: limit('the shared KV pool', 0, 4000, { unit: 'GB' }),
  /** New sessions per second per replica, in the sweep and the spread. */
  perReplicaRate: limit('a load per replica', 0.005, 2, { unit: 'sessions/s' }),
  fleetSize: limit('a fleet size', 1, 16, { integer: true, unit: 'replicas' }),
  /** How long sessions keep arriving. */
  arrivalS: limit('the arrival window', 1, 600, { unit: 's' }),
  /** Simulated seconds between the animation's frames. */
  frameIntervalS: limit('the frame interval', 0.05, 10, { unit: 's' }),
} as const;
