/**
 * 07.04's exercises and the hierarchy animation's "Try this", as a reader sees them: every figure their texts name
 * is the one the computation uses (the exercise's worker arguments, the catalog entries they name, the control's
 * schema), so a constant changed without its text, or a text typed apart from its constant, fails here.
 */
import { describe, expect, it } from 'vitest';
import { renderedText } from './lessonText';
import { expectValidSets } from './try-this';
import { methods } from '../src/worker/methods';
import {
  FootprintExplanation,
  FootprintHint,
  FootprintQuestion,
  FOOTPRINT_REPLICA,
  QUESTION_ARGS,
} from '../src/widgets/kv-footprint/KvFootprintExercise';
import {
  ContextShapeQuestion,
  CONTEXT_SWEEP,
  SHAPE_ARGS,
} from '../src/widgets/kv-footprint/ContextShapeExercise';
import { countWord, foldWord, ordinal, partWord, timesWord } from '../src/lib/numberWords';
import { TRY_THIS } from '../src/widgets/kv-hierarchy/KvHierarchy';
import { HIERARCHY_SETUPS, RAISED_HBM_GB } from '../src/widgets/kv-hierarchy/figures';
import { kvHierarchySchema } from '../src/widgets/kv-hierarchy/schema';
import { HIERARCHY_DEFAULTS, pageBytes } from '../src/sim/lessons/hierarchyLab';
import { PAUSE_POLICY_LABELS } from '../src/sim/lessons/pauseLabSetup';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { DTYPE_BYTES, findModel } from '../src/sim/engine/catalog/models';
import { modelName } from '../src/sim/engine/catalog/names';
import { profiledReserveBytesPerGpu } from '../src/sim/engine/hbm';
import { formatBytesDecimal, formatCount, formatNumber, formatPercent } from '../src/lib/format';

/** The text as a reader sees it (the apostrophes React escapes, read back). */
const text = renderedText;

const a = QUESTION_ARGS;
const m = findModel(a.modelId)!;
const gpu = findAccelerator(a.acceleratorId)!;
const r = methods.kvFootprint(QUESTION_ARGS);

describe('07.04 exercise: contexts per replica', () => {
  it('the question names the replica, its HBM, the share the engine may use and the context the worker is asked', () => {
    const q = text(<FootprintQuestion />);
    expect(q).toContain(
      `A replica serves ${m.name} in ${a.kvDtype.toUpperCase()} (weights and KV cache) on ${a.gpus} × ${gpu.name} ` +
        `(${formatBytesDecimal(gpu.memoryBytes)} each, as the driver reports it)`,
    );
    expect(a.weightDtype).toBe(a.kvDtype);
    expect(q).toContain(`may use ${formatPercent(a.memoryUtilization)} of HBM`);
    expect(q).toContain(`How many ${formatNumber(a.contextTokens, 6)}-token agent contexts`);
    // As it reads today: the HBM the computation uses is the driver's 85.5 GB, not the datasheet's "80 GB".
    expect(q).toContain(
      'Llama 3.1 70B in BF16 (weights and KV cache) on 8 × H100 SXM (85.5 GB each, as the driver reports it)',
    );
    expect(q).toContain('90% of HBM');
    expect(q).toContain('64,000-token agent contexts');
    expect(q).not.toContain('80 GB');
    // The worker computes with the same replica and memory.
    expect(r.modelName).toBe(m.name);
    expect(r.acceleratorName).toBe(gpu.name);
    expect(r.acceleratorMemoryBytes).toBe(gpu.memoryBytes);
  });

  it('the hint’s arithmetic is the catalog’s and the worker’s, and following it gives the answer', () => {
    const h = text(<FootprintHint />);
    const reserve = profiledReserveBytesPerGpu(a.gpus);
    expect(h).toContain(
      `Budget = ${a.gpus} × ${formatBytesDecimal(gpu.memoryBytes)} × ${formatNumber(a.memoryUtilization)} − ` +
        `${a.gpus} × ${formatBytesDecimal(reserve)} of vLLM's profiled activation reserve − weights ` +
        `(${formatNumber(m.totalParams / 1e9, 3)} B parameters × ${DTYPE_BYTES[a.weightDtype]} bytes)`,
    );
    expect(h).toContain(
      `One context = ${formatNumber(a.contextTokens, 6)} tokens × 2 × ${m.layers} layers × ${m.kvHeads} KV heads × ` +
        `${m.headDim} × ${DTYPE_BYTES[a.kvDtype]} bytes.`,
    );
    expect(h).toContain('One context = 64,000 tokens × 2 × 80 layers × 8 KV heads × 128 × 2 bytes.');
    expect(h).toContain('70.6 B parameters × 2 bytes');
    // Each term is the worker's.
    expect(r.kvCopies).toBe(1);
    expect(2 * m.layers * m.kvHeads * m.headDim * DTYPE_BYTES[a.kvDtype]).toBe(r.kvBytesPerToken);
    expect(m.totalParams * DTYPE_BYTES[a.weightDtype]).toBe(r.weightBytesTotal);
    expect(a.gpus * reserve).toBeCloseTo(r.reserveBytes, 0);
    expect(a.gpus * gpu.memoryBytes * a.memoryUtilization).toBeCloseTo(r.usableHbmBytes, 0);
    const budget = a.gpus * gpu.memoryBytes * a.memoryUtilization - a.gpus * reserve - r.weightBytesTotal;
    expect(Math.floor(budget / (a.contextTokens * r.kvBytesPerToken))).toBe(r.concurrentContexts);
  });

  it('the explanation: the GPUs in words, the count the worker computes', () => {
    const e = text(<FootprintExplanation r={r} />);
    expect(e).toContain(`${formatNumber(r.kvBytesPerToken)} bytes per token`);
    expect(e).toContain(`⌊budget / context⌋ = ${r.concurrentContexts}.`);
    expect(e).toContain(
      `${countWord(a.gpus, true)} ${gpu.name.split(' (')[0]} GPUs, each with ${formatBytesDecimal(gpu.memoryBytes)} of HBM, keep only ${r.concurrentContexts} long agent contexts warm`,
    );
    // Not "the world's largest": the lesson's own catalog has larger ones (07.04 says so).
    expect(e).toContain('Eight H100 SXM GPUs');
    expect(e).toContain('327,680 bytes per token');
  });
});

describe('07.04 predict-the-shape: the replica above, the lengths swept', () => {
  it('runs the first exercise’s replica over the contexts its question names', () => {
    for (const [k, v] of Object.entries(FOOTPRINT_REPLICA))
      expect(SHAPE_ARGS[k as keyof typeof SHAPE_ARGS]).toBe(v);
    const xs = SHAPE_ARGS.contextTokens;
    expect(xs.length).toBe(CONTEXT_SWEEP.points);
    const q = text(<ContextShapeQuestion />);
    expect(q).toContain(`Keep the replica above (${m.name}, ${FOOTPRINT_REPLICA.gpus} × ${gpu.name})`);
    expect(q).toContain(`grow from ${formatCount(xs[0])} to ${formatCount(xs[xs.length - 1])} tokens`);
    expect(q).toContain('(Llama 3.1 70B, 8 × H100 SXM)');
    expect(q).toContain('from 10k to 200k tokens');
    // The worker accepts the sweep as sent.
    expect(methods.kvFootprintSweep(SHAPE_ARGS).contextTokens).toEqual(xs);
  });
});

describe('07.04 hierarchy animation: the “Try this” suggests values its controls take', () => {
  it('every value an item sets is one its control offers (in range, on its step, an option)', () => {
    expectValidSets(TRY_THIS, kvHierarchySchema);
  });

  it('“Raise HBM for KV”: above the default, within the control’s range, reachable by its step, named as set', () => {
    const spec = kvHierarchySchema.hbmGB;
    const v = TRY_THIS[0].set!.hbmGB as number;
    expect(v).toBe(RAISED_HBM_GB);
    expect(v).toBe(HIERARCHY_SETUPS.bigHbm.hbmGB);
    expect(v).toBeGreaterThan(spec.default);
    expect(v).toBeGreaterThanOrEqual(spec.min);
    expect(v).toBeLessThanOrEqual(spec.max);
    const step = (spec as { step?: number }).step ?? (spec.integer ? 1 : undefined);
    expect(step).toBeDefined();
    const k = (v - spec.min) / step!;
    expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-9);
    const t = text(<>{TRY_THIS[0].text}</>);
    expect(t).toContain(`Raise ${spec.label} to ${spec.format(v)}:`);
    expect(t).toContain('Raise HBM for KV to 60 GB:');
  });

  it('the policy and model items name what they set, and the model’s ratio is the pages’', () => {
    const policy = TRY_THIS[1].set!.policy as keyof typeof PAUSE_POLICY_LABELS;
    expect(text(<>{TRY_THIS[1].text}</>)).toContain(
      `Set the pause policy to ${PAUSE_POLICY_LABELS[policy]}:`,
    );
    const model = TRY_THIS[2].set!.modelId as typeof HIERARCHY_SETUPS.small.modelId;
    expect(model).toBe(HIERARCHY_SETUPS.small.modelId);
    const ratio = pageBytes(HIERARCHY_DEFAULTS.modelId) / pageBytes(model);
    const t = text(<>{TRY_THIS[2].text}</>);
    expect(t).toContain(
      `Switch the model to ${modelName(model)}: ${partWord(ratio)} the KV per token, so the same gigabytes hold ${timesWord(ratio)} the pages`,
    );
    expect(ratio).toBe(2);
    expect(t).toContain(
      'Switch the model to Llama 3.1 8B: half the KV per token, so the same gigabytes hold twice',
    );
  });
});

describe('numbers in words', () => {
  it('counts, folds, ordinals and ratios; digits where there is no word', () => {
    expect(countWord(1)).toBe('one');
    expect(countWord(8, true)).toBe('Eight');
    expect(countWord(16)).toBe('16');
    expect(countWord(2.5)).toBe('2.5');
    expect(foldWord(8)).toBe('eightfold');
    expect(foldWord(16)).toBe('16-fold');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 90, 99, 101].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '90th',
      '99th',
      '101st',
    ]);
    expect(partWord(2)).toBe('half');
    expect(partWord(4)).toBe('25% of');
    expect(timesWord(2)).toBe('twice');
    expect(timesWord(4)).toBe('4 times');
  });
});
