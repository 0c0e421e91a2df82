/**
 * Lesson 07.09's decode step with grammar masks: what a batch of constrained sequences adds to time per output
 * token once the masks are filled on CPU threads while the GPU runs the forward pass (the fleet's rule,
 * src/sim/engine/fleet/grammar.ts), against charging them serially after it. One model on one GPU, every
 * sequence with the same context and the same mask cost (a homogeneous batch).
 */
import { resolveAccelerator, resolveModel } from '../../engine/catalog/index';
import { decodeStepTime, defaultHardware } from '../../engine/cost';
import { GRAMMAR_CPU_DEFAULTS, MASKBENCH_MASK_US } from '../../engine/fleet/dist';
import { maskWallS, overlappedStepS } from '../../engine/fleet/grammar';
import { limit, refuseOutsideEach } from '../../engine/limits';

/** Context tokens per sequence in lesson 07.09's decode-step figures and widget (an agent turn's scale). */
export const STEP_CONTEXT_TOKENS = 2000;

export interface MaskStepParams {
  /** Constrained sequences in the batch (all of it). */
  batch: number;
  /** Context tokens of each sequence. */
  contextTokens: number;
  /** CPU seconds of one mask. */
  maskS: number;
  /** Mask pool threads. */
  threads: number;
  /** Masks of up to this many sequences are filled serially (vLLM: 128). */
  serialUpTo?: number;
  /** Sequences per task on the pool (vLLM: 16; 1 for an engine that spreads single sequences). */
  chunk?: number;
  model?: string;
  accelerator?: string;
}

export interface MaskStep {
  /** The GPU's decode step without constraints (s). */
  gpuS: number;
  /** Wall time of the batch's masks on the CPU (s). */
  maskWallS: number;
  /** TPOT with the masks overlapped with the step (s). */
  overlappedS: number;
  /** TPOT if the masks ran after the step, one thread (the fleet's old rule) (s). */
  serialS: number;
  /** overlappedS / gpuS − 1. */
  overhead: number;
}

/**
 * What maskStep accepts for the settings the mask-overlap widget's controls set (its schema offers ranges inside
 * these; the page computes, so a refusal would reach the widget's error boundary). A batch of up to 1,024
 * sequences, four times vLLM's default max_num_seqs (256, the fleet's default too: fleet/scenario.ts); threads
 * up to the fleet's own cap on cpuThreads (1,024, fleet/scenarioValidation.ts).
 */
export const OVERLAP_LIMITS = {
  batch: limit('the constrained sequences in the batch', 1, 1024, { integer: true, unit: 'sequences' }),
  threads: limit('the CPU threads for masks', 1, 1024, { integer: true, unit: 'threads' }),
} as const;

export function maskStep(p: MaskStepParams): MaskStep {
  refuseOutsideEach(OVERLAP_LIMITS, p, ['batch', 'threads']);
  const model = resolveModel(p.model ?? 'llama-3.1-8b');
  const hw = defaultHardware(resolveAccelerator(p.accelerator ?? 'h100-sxm'), 1);
  const gpuS = decodeStepTime(model, hw, p.batch, p.batch * p.contextTokens);
  const wall = maskWallS(new Array<number>(p.batch).fill(p.maskS), {
    threads: p.threads,
    serialUpTo: p.serialUpTo ?? GRAMMAR_CPU_DEFAULTS.serialUpTo,
    chunk: p.chunk ?? GRAMMAR_CPU_DEFAULTS.chunk,
  });
  const overlappedS = overlappedStepS(gpuS, wall);
  return { gpuS, maskWallS: wall, overlappedS, serialS: gpuS + p.batch * p.maskS, overhead: overlappedS / gpuS - 1 };
}

/**
 * Mask costs the widget offers: MaskBench's XGrammar p50, mean and p99, LLGuidance's mean (µs). MaskBench pools the
 * mask steps of all its schemas before taking percentiles, so its p50 is the median mask step, not the mask cost of
 * a median schema; each `name` says which figure it is (the widget prints the µs beside it).
 */
export const MASK_COST_CHOICES = [
  { id: 'xgr-p50', name: 'XGrammar median mask step', us: MASKBENCH_MASK_US.xgrammar.p50 },
  { id: 'llg-mean', name: 'LLGuidance mean mask step', us: MASKBENCH_MASK_US.llguidance.mean },
  { id: 'xgr-mean', name: 'XGrammar mean mask step', us: MASKBENCH_MASK_US.xgrammar.mean },
  { id: 'xgr-p99', name: 'XGrammar p99 mask step', us: MASKBENCH_MASK_US.xgrammar.p99 },
] as const;

/** How the engine hands masks to its threads: vLLM's rule, or one sequence per task from the first one. */
export const FILL_RULES = {
  vllm: { serialUpTo: GRAMMAR_CPU_DEFAULTS.serialUpTo, chunk: GRAMMAR_CPU_DEFAULTS.chunk },
  perSequence: { serialUpTo: 0, chunk: 1 },
} as const;
export type FillRule = keyof typeof FILL_RULES;

/** The smallest thread count at which the masks hide behind the step (Infinity if none up to `max`). */
export function threadsToHide(p: Omit<MaskStepParams, 'threads'>, max = 64): number {
  for (let t = 1; t <= max; t++) {
    const s = maskStep({ ...p, threads: t });
    if (s.maskWallS <= s.gpuS) return t;
  }
  return Infinity;
}
