/**
 * What lesson 07.01's timings assume (model, replica, decode batch): catalog ids and counts only, so the main
 * thread can name them without loading the workload generator.
 */
import { limit } from '../engine/limits';

export const LESSON_MODEL_ID = 'llama-3.1-70b';
export const LESSON_ACCELERATOR_ID = 'h100-sxm';
export const LESSON_TP = 8;
/** Sequences sharing each decode step in the prefill-share figure. */
export const LESSON_DECODE_BATCH = 16;


/**
 * What 07.01's generator (agentSession.ts, agentWorkload.ts) accepts for the settings its widgets' controls set, declared once: the
 * generator checks these, the widgets' schemas (src/widgets/traffic-shape, src/widgets/trajectory-anatomy) offer
 * ranges inside them. Sessions: the whole workload is generated, tabulated and replayed through a prefix cache, and
 * 1,000 sessions of 100 median turns (both maxima) already take 5 s in the worker (docs/reliability.md). Median
 * turns: a session's turns are a log-normal around it, capped at 4× (so up to 400 model calls at 100, past the
 * 33-turn median of the vLLM/Mooncake agent traces the class follows); below 1 there is no session.
 */
export const WORKLOAD_LIMITS = {
  sessions: limit('the number of sessions', 1, 1000, { integer: true, unit: 'sessions' }),
  medianTurns: limit('the median turns of an agent session', 1, 100, { integer: true, unit: 'turns' }),
} as const;
