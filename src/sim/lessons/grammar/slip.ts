/**
 * "Asking nicely": a sampler that follows the format instruction at every step except with a small probability
 * ε of a slip (a token that breaks the format). Without a mask an N-token output survives only if no step
 * slips, p_valid = (1 − ε)^N; with the mask the slip tokens' logits are −∞ and p_valid = 1.
 * Pure; randomness from a seeded Rng.
 */
import { finish, Pace, type Steps } from '../../engine/cooperative';
import { createRng } from '../../engine/rng';
import { refuseOutsideEach } from '../../engine/limits';
import { ASK_NICELY_LIMITS } from './limits';

/** Probability that N independent steps, each slipping with probability ε, produce a valid output. */
export function pValid(eps: number, n: number): number {
  if (eps <= 0) return 1;
  if (eps >= 1) return n > 0 ? 0 : 1;
  return Math.exp(n * Math.log1p(-eps));
}

/** Expected malformed calls among M calls of N tokens each. */
export function expectedFailures(eps: number, n: number, m: number): number {
  return m * (1 - pValid(eps, n));
}

/** Probability that a session of M calls has no malformed call at all: p_valid^M. */
export function pCleanSession(eps: number, n: number, m: number): number {
  return Math.pow(pValid(eps, n), m);
}

/** Tokens per call at which p_valid falls to ½: ln ½ / ln(1 − ε). */
export function halfLifeTokens(eps: number): number {
  return Math.log(0.5) / Math.log1p(-eps);
}

export interface ToyToken {
  text: string;
  /** True for a token that breaks the format (a slip). */
  slip: boolean;
  logit: number;
  /** softmax probability without the mask */
  p: number;
  /** probability with the mask (slips at −∞, the rest renormalised) */
  pMasked: number;
}

/** The legal tokens' logits at one step of a tool call (the model is confident but not certain). */
const LEGAL: ReadonlyArray<readonly [string, number]> = [
  ['"city"', 6],
  ['"location"', 3.5],
  ['"town"', 2.5],
  ['"place"', 1.5],
];
const SLIPS = ['Sure', '```json'] as const;

/**
 * A toy logit vector over six tokens whose two slip tokens carry total probability ε: with L the sum of
 * exp(logit) over the legal tokens, each slip gets logit ln(εL / (2(1 − ε))).
 */
export function toyDistribution(eps: number): ToyToken[] {
  const l = LEGAL.reduce((s, [, z]) => s + Math.exp(z), 0);
  const slipLogit = Math.log((eps * l) / (SLIPS.length * (1 - eps)));
  const logits = [
    ...LEGAL.map(([t, z]) => ({ text: t, slip: false, logit: z })),
    ...SLIPS.map((t) => ({ text: t, slip: true, logit: slipLogit })),
  ];
  const z = logits.reduce((s, t) => s + Math.exp(t.logit), 0);
  return logits.map((t) => ({ ...t, p: Math.exp(t.logit) / z, pMasked: t.slip ? 0 : Math.exp(t.logit) / l }));
}

export interface AskNicelyRequest {
  eps: number;
  /** Tokens per tool call. */
  tokens: number;
  /** Tool calls per session. */
  calls: number;
  seed: number;
}

export interface AskNicelyResult {
  eps: number;
  toy: ToyToken[];
  pValid: number;
  expectedFailures: number;
  pCleanSession: number;
  halfLife: number;
  /** Analytic p_valid against N, without the mask. */
  curve: { n: number; p: number }[];
  /** Simulated share of valid outputs at a few lengths (trials per point below), without the mask. */
  simulated: { n: number; p: number; trials: number }[];
  /** One session sampled token by token: per call, the step of the first slip (null = valid). */
  session: (number | null)[];
  sessionFailures: number;
  /** With the mask the same draws never pick a slip: failures with the mask. */
  maskedFailures: number;
}

/** Sample one call token by token from the toy distribution; returns the first slip step or null. */
function sampleCall(
  rng: ReturnType<typeof createRng>,
  toy: readonly ToyToken[],
  n: number,
  masked: boolean,
): number | null {
  for (let i = 0; i < n; i++) {
    let u = rng.next();
    for (const t of toy) {
      const p = masked ? t.pMasked : t.p;
      if (u < p) {
        if (t.slip) return i;
        break;
      }
      u -= p;
    }
  }
  return null;
}

export const SIM_TRIALS = 400;

export function askNicely(req: AskNicelyRequest): AskNicelyResult {
  return finish(askNicelySteps(req));
}

/** Sampled tokens (an upper bound: a call stops at its first slip) between yields of askNicelySteps: a few ms. */
const TOKENS_PER_YIELD = 100_000;

/** askNicely as a cooperative computation (engine/cooperative.ts): it yields between sampled calls. */
export function* askNicelySteps(req: AskNicelyRequest): Steps<AskNicelyResult> {
  refuseOutsideEach(ASK_NICELY_LIMITS, req, ['eps', 'tokens', 'calls']);
  const { eps, tokens, calls } = req;
  const pace = new Pace(TOKENS_PER_YIELD);
  const toy = toyDistribution(eps);
  const nMax = Math.max(2000, tokens * 2);
  const curve: { n: number; p: number }[] = [];
  for (let i = 0; i <= 120; i++) {
    const n = Math.round(Math.exp((Math.log(nMax) * i) / 120));
    if (curve.length === 0 || curve[curve.length - 1].n !== n) curve.push({ n, p: pValid(eps, n) });
  }
  const rng = createRng(req.seed);
  const simRng = rng.fork();
  const simulated: AskNicelyResult['simulated'] = [];
  for (const n of [10, 30, 100, 300, 1000, 2000].filter((x) => x <= nMax)) {
    let ok = 0;
    for (let k = 0; k < SIM_TRIALS; k++) {
      if (sampleCall(simRng, toy, n, false) === null) ok++;
      if (pace.due(n)) yield;
    }
    simulated.push({ n, p: ok / SIM_TRIALS, trials: SIM_TRIALS });
  }
  const sessRng = rng.fork();
  const session: (number | null)[] = [];
  for (let c = 0; c < calls; c++) {
    session.push(sampleCall(sessRng, toy, tokens, false));
    if (pace.due(tokens)) yield;
  }
  const maskRng = rng.fork();
  let maskedFailures = 0;
  for (let c = 0; c < calls; c++) {
    if (sampleCall(maskRng, toy, tokens, true) !== null) maskedFailures++;
    if (pace.due(tokens)) yield;
  }
  return {
    eps,
    toy,
    pValid: pValid(eps, tokens),
    expectedFailures: expectedFailures(eps, tokens, calls),
    pCleanSession: pCleanSession(eps, tokens, calls),
    halfLife: halfLifeTokens(eps),
    curve,
    simulated,
    session,
    sessionFailures: session.filter((s) => s !== null).length,
    maskedFailures,
  };
}
