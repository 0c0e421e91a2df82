/**
 * Limits a run checks before it allocates anything: a scenario can be valid field by field and still ask for a
 * 10¹²-token prompt or a billion requests, which would end the process (out of memory, or V8's own fatal error)
 * instead of giving a message. These bounds are far above any lesson's and any real fleet's hour, and the
 * message says which figure to lower.
 */
import type { Dist } from './dist';

/** The longest prompt or segment the simulator holds: 10M tokens (today's largest context windows are ~1–10M). */
export const MAX_SEGMENT_TOKENS = 10_000_000;
/** Requests in one run at most: ~5M requests is a few GB of per-request state and minutes of simulation. */
export const MAX_REQUESTS = 5_000_000;

/** A value the distribution can plausibly reach (its clip, or far in its tail): for bounds, not for sampling. */
export function upperReach(d: Dist): number {
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return d.max;
    case 'exponential':
      return d.max ?? d.mean * 20;
    case 'lognormal':
      return d.max ?? d.median * Math.exp(4 * d.sigma);
    case 'normal':
      return d.max ?? d.mean + 5 * d.sd;
    case 'choice':
      return Math.max(...d.values);
    case 'mixture':
      return Math.max(...d.components.map((c) => upperReach(c.dist)));
    case 'parallel':
      return upperReach(d.each);
  }
}

/** A typical value (median or mean), for the expected request count. */
export function typical(d: Dist): number {
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return (d.min + d.max) / 2;
    case 'exponential':
      return d.mean;
    case 'lognormal':
      return d.median;
    case 'normal':
      return d.mean;
    case 'choice':
      return d.values.reduce((a, b) => a + b, 0) / d.values.length;
    case 'mixture': {
      const w = d.components.reduce((a, c) => a + c.weight, 0) || 1;
      return d.components.reduce((a, c) => a + (c.weight / w) * typical(c.dist), 0);
    }
    case 'parallel':
      return typical(d.each); // a lower bound: the longest of several is longer
  }
}

const TOKEN_FIELDS = [
  'systemTokens',
  'toolSchemaTokens',
  'taskTokens',
  'outputTokens',
  'toolResultTokens',
  'userTokens',
];

interface ClassLike {
  name?: unknown;
  turns?: Dist;
  [k: string]: unknown;
}

/** Errors for a scenario whose fields are each valid (run after validateScenario's field checks). */
export function scaleErrors(workload: {
  sessions?: number;
  classes?: ClassLike[];
}): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  const classes = workload.classes ?? [];
  let turnsPerSession = 0;
  classes.forEach((c, i) => {
    for (const k of TOKEN_FIELDS) {
      const d = c[k] as Dist | undefined;
      if (!d || typeof d !== 'object') continue;
      const reach = upperReach(d);
      if (reach > MAX_SEGMENT_TOKENS)
        errors.push({
          path: `workload.classes[${i}].${k}`,
          message: `reaches ${reach.toExponential(1).replace('e+', ' × 10^')} tokens; the simulator holds at most ${MAX_SEGMENT_TOKENS.toLocaleString('en-US')} tokens per segment`,
        });
    }
    if (c.turns && typeof c.turns === 'object') turnsPerSession = Math.max(turnsPerSession, typical(c.turns));
  });
  if (workload.sessions !== undefined && turnsPerSession > 0) {
    const requests = workload.sessions * turnsPerSession;
    if (requests > MAX_REQUESTS)
      errors.push({
        path: 'workload.sessions',
        message: `${workload.sessions.toLocaleString('en-US')} sessions of about ${Math.round(turnsPerSession)} turns are about ${Math.round(requests).toLocaleString('en-US')} requests; one run simulates at most ${MAX_REQUESTS.toLocaleString('en-US')}: lower sessions or turns`,
      });
  }
  return errors;
}
