/**
 * Illustrative logits for lesson 07.08's "mask over logits" animation, and the mask applied to them. Pure.
 *
 * No language model runs in the browser here, so the logits are not a real model's. They are a seeded,
 * deterministic stand-in with the shape that matters: the "model" prefers the token the valid reply writes
 * next, a few plausible wrong candidates compete with it (chat and Markdown openers, which a model asked for
 * JSON tends to start with, strongest at the start of the reply; and other tokens of the same kind), and the
 * rest of the vocabulary shares a small tail. The mask that falls on them is the real one.
 *
 * Masking follows the lesson's formula: z̃ᵢ = zᵢ for allowed i, −∞ otherwise, so p̃ᵢ = pᵢ[i ∈ A] / Σ_{j∈A} pⱼ.
 */
import { createRng } from '../../engine/rng';

export type CandidateKind = 'next' | 'alternative' | 'prose';

export interface Candidate {
  id: number;
  kind: CandidateKind;
  /** Illustrative logit before masking. */
  logit: number;
  /** The real mask's bit for this id. */
  allowed: boolean;
}

export interface MaskedLogits {
  /** Top candidates, highest logit first. */
  candidates: Candidate[];
  /** The rest of the vocabulary, as one bucket of equal logits. */
  tail: { count: number; allowed: number; logit: number };
  /** Softmax before the mask: one entry per candidate, then the tail's total. Sums to 1. */
  before: number[];
  /** After the mask (−∞ for blocked ids) and renormalising. Same layout; sums to 1. */
  after: number[];
  /** Probability the mask removed (the blocked share of `before`). */
  masked: number;
}

/** Share of probability the tail holds before masking (illustrative: a model's top few tokens hold most). */
export const TAIL_SHARE = 0.04;

export interface LogitInputs {
  step: number;
  /** Token the valid reply writes at this step. */
  nextId: number;
  /** Candidate pools (token ids), in a fixed order. */
  prosePool: readonly number[];
  alternativePool: readonly number[];
  isAllowed: (id: number) => boolean;
  /** Allowed ids in the whole vocabulary (popcount of the mask). */
  allowedCount: number;
  vocabSize: number;
  seed: number;
  /** Candidates drawn from each pool. */
  proseCount?: number;
  alternativeCount?: number;
}

/** Draw `k` distinct ids from `pool`, none of them in `exclude`. */
function draw(
  rng: ReturnType<typeof createRng>,
  pool: readonly number[],
  k: number,
  exclude: Set<number>,
): number[] {
  const left = pool.filter((id) => !exclude.has(id));
  const out: number[] = [];
  while (out.length < k && left.length > 0) out.push(left.splice(rng.int(left.length), 1)[0]);
  for (const id of out) exclude.add(id);
  return out;
}

/** The candidates' illustrative logits at one step (seeded per step, so any step is computed alone). */
export function illustrativeCandidates(inp: LogitInputs): Omit<Candidate, 'allowed'>[] {
  const rng = createRng((inp.seed * 7919 + inp.step * 104_729) >>> 0);
  const taken = new Set<number>([inp.nextId]);
  const prose = draw(rng, inp.prosePool, inp.proseCount ?? 3, taken);
  const alternatives = draw(rng, inp.alternativePool, inp.alternativeCount ?? 3, taken);
  // Chat and Markdown openers pull hardest at the start of the reply and fade as it goes on.
  const proseBase = 3 + 2.6 * Math.exp(-inp.step / 3);
  return [
    { id: inp.nextId, kind: 'next' as const, logit: 6 + 0.4 * rng.normal() },
    ...prose.map((id) => ({ id, kind: 'prose' as const, logit: proseBase + 0.5 * rng.normal() })),
    ...alternatives.map((id) => ({ id, kind: 'alternative' as const, logit: 3.4 + 0.7 * rng.normal() })),
  ];
}

/** Apply a mask to candidates plus a tail bucket: softmax before, −∞ for blocked ids, softmax after. */
export function applyMask(
  raw: readonly Omit<Candidate, 'allowed'>[],
  isAllowed: (id: number) => boolean,
  allowedCount: number,
  vocabSize: number,
): MaskedLogits {
  const candidates = raw.map((c) => ({ ...c, allowed: isAllowed(c.id) })).sort((a, b) => b.logit - a.logit);
  const top = candidates[0]?.logit ?? 0;
  const w = candidates.map((c) => Math.exp(c.logit - top));
  const wSum = w.reduce((a, b) => a + b, 0);
  const tailCount = vocabSize - candidates.length;
  // Tail weight such that it holds TAIL_SHARE of the probability before masking.
  const tailTotal = (TAIL_SHARE / (1 - TAIL_SHARE)) * wSum;
  const tailLogit = top + Math.log(tailTotal / tailCount);
  const tailAllowed = Math.max(0, allowedCount - candidates.filter((c) => c.allowed).length);
  const beforeW = [...w, tailTotal];
  const afterW = [...w.map((x, i) => (candidates[i].allowed ? x : 0)), tailTotal * (tailAllowed / tailCount)];
  const zBefore = beforeW.reduce((a, b) => a + b, 0);
  const zAfter = afterW.reduce((a, b) => a + b, 0);
  const before = beforeW.map((x) => x / zBefore);
  const after = zAfter > 0 ? afterW.map((x) => x / zAfter) : afterW.map(() => 0);
  const masked = 1 - zAfter / zBefore;
  return {
    candidates,
    tail: { count: tailCount, allowed: tailAllowed, logit: tailLogit },
    before,
    after,
    masked,
  };
}
