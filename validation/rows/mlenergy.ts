/**
 * Cost model against the ML.ENERGY Leaderboard's decode steps: median ITL at a batch held full, on 1, 2, 4 and 8
 * H100s (Qwen3-32B at TP1 and TP2, Llama-3.1-70B at TP4, Llama-3.1-405B FP8 at TP8), so the all-reduce's latency
 * past two GPUs is priced against a measured step, not only against NCCL microbenchmarks; and, as known gaps, the
 * B200, a 6-ms 8B step and a mixture-of-experts step, which the lab does not reproduce. docs/validation.md,
 * "Cost model".
 */
import {
  decodeCost,
  defaultGemmEfficiency,
  defaultHardware,
  effectiveMemBandwidth,
  type HardwareConfig,
} from '../../src/sim/engine/cost';
import { weightBytesTouched } from '../../src/sim/engine/flopsAndBytes';
import type { ValidationRow } from '../row';
import type { ModelSpec } from '../../src/sim/engine/catalog/models';
import { H100, model, ms, QWEN3_32B } from './cost';
import { findAccelerator } from '../../src/sim/engine/catalog/accelerators';

/**
 * The ML.ENERGY Leaderboard v3.0 (Dec. 2025): vLLM v0.11.1 (`vllm/vllm-openai:v0.11.1`, the default `server_image` of
 * ml-energy/benchmark `mlenergy/benchmark/llm/benchmark.py`) on H100s, tensor parallel over the run's `num_gpus` (the
 * benchmark passes `--tensor-parallel-size` unless the config asks for data parallelism), the batch held at
 * `max_num_seqs` (the reported `avg_batch_size` is within 0.2 of it). Server flags: ml-energy/benchmark
 * `configs/vllm/<task>/<model>/H100/monolithic.config.yaml` at c1d6557 (`async-scheduling: true`,
 * `max-num-batched-tokens: 8192`; the same for Qwen3-32B, Llama-3.1-70B-Instruct and Llama-3.1-405B-Instruct-FP8).
 */
export const MLENERGY = (hfModel: string, task: string, tp: number) =>
  `ML.ENERGY Leaderboard v3.0, ml-energy/leaderboard public/data/models/${hfModel.replace('/', '__')}__${task}.json at 0cd52da (H100, num_gpus ${tp}, tensor parallel, median_itl_ms); server config ml-energy/benchmark configs/vllm/${task}/${hfModel}/H100/monolithic.config.yaml at c1d6557`;
/**
 * Async scheduling (vllm-project/vllm PR 19970) schedules step n + 1 while step n runs on the GPU, so the CPU part of a
 * step (what `iterationOverheadS` stands for) is hidden: the rows price the step without it.
 */
const hwAsync = (tp: number): HardwareConfig => ({ ...defaultHardware(H100, tp), iterationOverheadS: 0 });
/**
 * Median ITL at a full batch: [max_num_seqs, median ITL ms, output part of the mean context]. A slot that runs
 * requests back to back spends one step per output token, so the context a step sees averages the prompt plus
 * E[L²] / (2 E[L]) over the output lengths L; the latter is computed from each configuration's own
 * `output_length_distribution` histogram (bin midpoints) in the same file.
 */
const MLENERGY_ARENA: [number, number, number][] = [
  [8, 15.06, 554],
  [16, 16.037, 554],
  [32, 17.914, 570],
];
/** The same workload on one H100 (tensor_parallel 1): with TP2 it pins what two GPUs cost beyond half the work. */
const MLENERGY_ARENA_TP1: [number, number, number][] = [
  [8, 25.206, 578],
  [16, 26.353, 550],
];
const MLENERGY_GPQA: [number, number, number][] = [
  [8, 16.725, 5030],
  [16, 19.324, 4849],
  [32, 25.268, 5385],
  [64, 32.281, 5071],
];
/**
 * Prompt tokens, not published. LMArena (`arena-human-preference-100k`, each turn carries the earlier turns) and GPQA
 * (question + four choices, ml-energy/benchmark `mlenergy/benchmark/llm/datasets.py` GPQADataset): 300 assumed for
 * both; ±200 tokens moves ours by at most 2% in these rows.
 */
export const MLENERGY_PROMPT = 300;

export const QWEN_HF = 'Qwen/Qwen3-32B';
const LLAMA_70B_HF = 'meta-llama/Llama-3.1-70B-Instruct';
const LLAMA_405B_FP8_HF = 'meta-llama/Llama-3.1-405B-Instruct-FP8';
const LLAMA_70B = model('llama-3.1-70b');
const LLAMA_405B = model('llama-3.1-405b');

/** Llama-3.1-70B BF16 on 4 × H100 (TP4), LMArena chat: [max_num_seqs, median ITL ms, output part of the context]. */
const MLENERGY_70B_TP4: [number, number, number][] = [
  [8, 16.573, 332],
  [16, 17.697, 356],
  [32, 20.047, 332],
];
/** Llama-3.1-405B-Instruct-FP8 on 8 × H100 (TP8), LMArena chat: the same columns. */
const MLENERGY_405B_FP8_TP8: [number, number, number][] = [
  [8, 33.196, 362],
  [16, 34.037, 440],
  [32, 36.331, 377],
];

/**
 * Known gaps (docs/validation.md, Cost model): Qwen3-32B BF16 on one B200, the same leaderboard and server flags
 * (`Qwen__Qwen3-32B__lm-arena-chat.json`, gpu_model B200, num_gpus 1): [max_num_seqs, median ITL ms, output part of
 * the context]. Ours is 0.73 at 8 sequences to 0.63 at 64: the lab's B200 decodes faster than vLLM v0.11.1 did on
 * one, and lesson 07.12 says what that costs its verdict.
 */
export const MLENERGY_QWEN_B200_TP1: readonly [number, number, number][] = [
  [8, 14.127, 582],
  [16, 15.11, 553],
  [32, 16.814, 555],
  [64, 19.583, 554],
];
/**
 * Meta's FP8 checkpoint of Llama-3.1-405B quantizes only the feed-forward weights (w1, w3, w2) of every layer but the
 * first and the last, row-wise; attention, those two layers' MLPs, the embeddings and the LM head stay BF16
 * (meta-llama/llama-models models/llama3/quantization/loader.py at 7798f83, convert_to_fp8_quantized_model; vLLM
 * loads the Hugging Face export with its fbgemm_fp8 method). The MLP width is config.json's intermediate_size
 * (53,248), which the catalog does not hold.
 */
const LLAMA_405B_MLP_WIDTH = 53_248;
const LLAMA_405B_FP8_PARAMS = (LLAMA_405B.layers - 2) * 3 * LLAMA_405B.hiddenSize * LLAMA_405B_MLP_WIDTH;

/**
 * A decode step of Meta's mixed FP8 checkpoint. The cost model streams one dtype for all weights: priced at FP8, the
 * BF16 weights' second byte is added to the memory time (the step is memory-bound at these batches: the GEMMs,
 * priced at BF16, take under a third of it).
 */
function mixedFp8DecodeS(batch: number, contextTokens: number): number {
  const hw: HardwareConfig = { ...defaultHardware(H100, 8), iterationOverheadS: 0, weightDtype: 'fp8' };
  const c = decodeCost(LLAMA_405B, hw, batch, contextTokens);
  const bf16Params = weightBytesTouched(LLAMA_405B, 'fp8', batch) - LLAMA_405B_FP8_PARAMS;
  const memoryS = c.memoryTime + bf16Params / effectiveMemBandwidth(hw);
  return Math.max(c.computeTime, memoryS) + c.allReduceTime + c.overheadTime;
}

const B200 = findAccelerator('b200')!;
const LLAMA_8B = model('llama-3.1-8b');
const QWEN3_235B = model('qwen3-235b-a22b');

/** Known gaps (docs/validation.md, Cost model): Llama-3.1-8B BF16 on one H100, the same columns. */
const MLENERGY_8B_H100_TP1: [number, number, number][] = [
  [8, 7.316, 379],
  [16, 7.912, 411],
  [32, 8.907, 360],
];
/** Known gaps: Qwen3-235B-A22B-Instruct-2507-FP8 (block FP8) on 8 × H100 with expert parallelism, the same columns. */
const MLENERGY_235B_FP8_H100_EP8: [number, number, number][] = [
  [8, 24.736, 945],
  [16, 26.786, 937],
  [32, 30.158, 944],
  [64, 34.669, 946],
];
const hwFp8Async = (tp: number): HardwareConfig => ({
  ...defaultHardware(H100, tp),
  iterationOverheadS: 0,
  weightDtype: 'fp8',
  computeDtype: 'fp8',
  gemmEfficiency: defaultGemmEfficiency('fp8'),
});

/** One configuration the leaderboard ran: its points [batch, median ITL ms, output part of the context]. */
interface ItlSeries {
  points: readonly (readonly [number, number, number])[];
  /** The rows' id before `-b<batch>`. */
  id: string;
  what: (batch: number) => string;
  source: string;
  /** Seconds of one decode step of `batch` sequences holding `contextTokens` in all: the lab's price. */
  step: (batch: number, contextTokens: number) => number;
  note?: (batch: number, out: number) => string;
  /** Set for figures the lab knowingly does not reproduce (ValidationRow.knownGap). */
  knownGap?: string;
}

/** A series' rows: each point a decode step of the batch held full, at the prompt plus its output part. */
function itlRows(s: ItlSeries): ValidationRow[] {
  return s.points.map(([b, t, out]) => ({
    id: `${s.id}-b${b}`,
    group: 'Cost model',
    what: s.what(b),
    source: s.source,
    published: t,
    unit: 'ms',
    ours: () => ms(s.step(b, b * (MLENERGY_PROMPT + out))),
    tolerance: { kind: 'relative', value: 0.15 },
    ...(s.note ? { note: s.note(b, out) } : {}),
    ...(s.knownGap ? { knownGap: s.knownGap } : {}),
  }));
}

/** The cost model's decode step of `m` on `hw`. */
const decodeS = (m: ModelSpec, hw: HardwareConfig) => (batch: number, contextTokens: number) =>
  decodeCost(m, hw, batch, contextTokens).time;

export const rows: ValidationRow[] = [
  ...itlRows({
    points: MLENERGY_ARENA,
    id: 'mlenergy-itl-qwen3-32b-tp2-arena',
    what: (b) =>
      `Median ITL, Qwen3-32B BF16, 2 × H100 (TP2), vLLM v0.11.1 with async scheduling, batch held at ${b}, LMArena chat (outputs of 630 tokens on average)`,
    source: MLENERGY(QWEN_HF, 'lm-arena-chat', 2),
    step: decodeS(QWEN3_32B, hwAsync(2)),
    note: (b, out) =>
      `A decode step of ${b} sequences at ${MLENERGY_PROMPT} + ${out} tokens of context, without the per-step overhead (async scheduling hides it). Larger batches are not rows: docs/validation.md, Cost model.`,
  }),
  ...itlRows({
    points: MLENERGY_ARENA_TP1,
    id: 'mlenergy-itl-qwen3-32b-tp1-arena',
    what: (b) =>
      `Median ITL, Qwen3-32B BF16, 1 × H100, vLLM v0.11.1 with async scheduling, batch held at ${b}, LMArena chat`,
    source: MLENERGY(QWEN_HF, 'lm-arena-chat', 1),
    step: decodeS(QWEN3_32B, hwAsync(1)),
    note: () =>
      'No all-reduce at TP1. Beside the TP2 rows it checks what TP2 adds to half the work: at batch 8, 15.06 − 25.21 / 2 = 2.46 ms measured; ours 2.5 ms, the 128 all-reduces of a step (tensorParallel.ts, fitted to Vidur).',
  }),
  ...itlRows({
    points: MLENERGY_GPQA,
    id: 'mlenergy-itl-qwen3-32b-tp2-gpqa',
    what: (b) =>
      `Median ITL, Qwen3-32B BF16 (thinking), 2 × H100 (TP2), vLLM v0.11.1 with async scheduling, batch held at ${b}, GPQA (outputs of 7,000 tokens on average)`,
    source: MLENERGY(QWEN_HF, 'gpqa', 2),
    step: decodeS(QWEN3_32B, hwAsync(2)),
    note: (b, out) =>
      `A decode step of ${b} sequences at ${MLENERGY_PROMPT} + ${out} tokens of context (streaming the KV is 13–53% of the step), without the per-step overhead.`,
  }),
  ...itlRows({
    points: MLENERGY_70B_TP4,
    id: 'mlenergy-itl-llama-70b-tp4-arena',
    what: (b) =>
      `Median ITL, Llama-3.1-70B BF16, 4 × H100 (TP4), vLLM v0.11.1 with async scheduling, batch held at ${b}, LMArena chat`,
    source: MLENERGY(LLAMA_70B_HF, 'lm-arena-chat', 4),
    step: decodeS(LLAMA_70B, hwAsync(4)),
    note: (b, out) =>
      `A decode step of ${b} sequences at ${MLENERGY_PROMPT} + ${out} tokens of context, without the per-step overhead; its 160 all-reduces at TP4 are a quarter of it.`,
  }),
  ...itlRows({
    points: MLENERGY_405B_FP8_TP8,
    id: 'mlenergy-itl-llama-405b-fp8-tp8-arena',
    what: (b) =>
      `Median ITL, Llama-3.1-405B-Instruct-FP8 (Meta's mixed FP8: MLPs FP8, attention BF16), 8 × H100 (TP8), vLLM v0.11.1 with async scheduling, batch held at ${b}, LMArena chat`,
    source: `${MLENERGY(LLAMA_405B_FP8_HF, 'lm-arena-chat', 8)}; the checkpoint's FP8 layers: meta-llama/llama-models models/llama3/quantization/loader.py at 7798f83`,
    step: mixedFp8DecodeS,
    note: (b, out) =>
      `A decode step of ${b} sequences at ${MLENERGY_PROMPT} + ${out} tokens of context, without the per-step overhead; the 252 all-reduces of TP8 (NCCL's ring latency, tensorParallel.ts) are 30% of it. The step TP8 measures is matched without a faster all-reduce.`,
  }),
  // The published figures of this leaderboard the lab knowingly does not reproduce, each with why.
  ...itlRows({
    points: MLENERGY_QWEN_B200_TP1,
    id: 'mlenergy-itl-qwen3-32b-b200-tp1-arena',
    what: (b) =>
      `Median ITL, Qwen3-32B BF16, 1 × B200, vLLM v0.11.1 with async scheduling, batch held at ${b}, LMArena chat`,
    source: `${MLENERGY(QWEN_HF, 'lm-arena-chat', 1)} (gpu_model B200)`,
    step: decodeS(QWEN3_32B, { ...defaultHardware(B200, 1), iterationOverheadS: 0 }),
    knownGap:
      "the lab's B200 decodes faster than vLLM v0.11.1 did on one: 2–4 ms a step at 8 sequences that the datasheet's bandwidth does not account for; not fitted (07.12 prices its verdict at the measured speed too)",
  }),
  ...itlRows({
    points: MLENERGY_8B_H100_TP1,
    id: 'mlenergy-itl-llama-8b-tp1-arena',
    what: (b) =>
      `Median ITL, Llama-3.1-8B BF16, 1 × H100, vLLM v0.11.1 with async scheduling, batch held at ${b}, LMArena chat`,
    source: MLENERGY('meta-llama/Llama-3.1-8B-Instruct', 'lm-arena-chat', 1),
    step: decodeS(LLAMA_8B, hwAsync(1)),
    knownGap:
      'a 6-ms step: likely its CPU part, which async scheduling overlaps with a longer GPU step, sets it here; the cost model has one additive step overhead and no CPU-bound floor',
  }),
  ...itlRows({
    points: MLENERGY_235B_FP8_H100_EP8,
    id: 'mlenergy-itl-qwen3-235b-fp8-ep8-arena',
    what: (b) =>
      `Median ITL, Qwen3-235B-A22B-Instruct-2507-FP8, 8 × H100 with expert parallelism, vLLM v0.11.1 with async scheduling, batch held at ${b}, LMArena chat`,
    source: MLENERGY('Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', 'lm-arena-chat', 8),
    step: decodeS(QWEN3_235B, hwFp8Async(8)),
    knownGap:
      "a mixture-of-experts step priced as tensor parallel over the touched experts: expert parallelism's all-to-all, the fused-MoE kernels at a few tokens per expert and FP8 blocks' dequantization are not modelled",
  }),
];
