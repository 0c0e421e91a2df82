/**
 * 07.04's exercise: the answer comes from the same worker method as the calculator, and every figure the question
 * and the hint name comes from its arguments (QUESTION_ARGS) and the catalog entries they name.
 */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation, type Computed } from '../kit/useSimulation';
import { formatBytesDecimal, formatNumber, formatPercent, formatWhole } from '../../lib/format';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import { DTYPE_BYTES, findModel } from '../../sim/engine/catalog/models';
import { acceleratorName, modelName, shortName } from '../../sim/engine/catalog/names';
import { footprintKvCopies } from '../../sim/engine/footprint';
import { profiledReserveBytesPerGpu } from '../../sim/engine/hbm';
import type { MethodResult } from '../../worker/methods';
import { countWord } from '../../lib/numberWords';

/** One dtype for the weights and the KV cache ("in BF16 (weights and KV cache)"). */
const DTYPE = 'bf16';

/** The replica the exercise (and the predict-the-shape exercise after it, "the replica above") asks about. */
export const FOOTPRINT_REPLICA = {
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  kvDtype: DTYPE,
  weightDtype: DTYPE,
  gpus: 8,
  memoryUtilization: 0.9,
} as const;

/** What the exercise asks the worker (kvFootprint): the replica and one agent context's length. */
export const QUESTION_ARGS = { ...FOOTPRINT_REPLICA, contextTokens: 64_000 } as const;

type FootprintResult = Computed<MethodResult<'kvFootprint'>>;

export function FootprintQuestion() {
  const a = QUESTION_ARGS;
  const gpu = findAccelerator(a.acceleratorId);
  return (
    <p>
      A replica serves {modelName(a.modelId)} in {DTYPE.toUpperCase()} (weights and KV cache) on {a.gpus} ×{' '}
      {acceleratorName(a.acceleratorId)} ({formatBytesDecimal(gpu?.memoryBytes)} each, as the driver reports
      it), and the engine may use {formatPercent(a.memoryUtilization)} of HBM. How many{' '}
      {`${formatWhole(a.contextTokens)}-token`} agent contexts fit in its KV budget at once? Predict first,
      then check with the calculator above.
    </p>
  );
}

export function FootprintHint() {
  const a = QUESTION_ARGS;
  const m = findModel(a.modelId);
  const gpu = findAccelerator(a.acceleratorId);
  if (!m || !gpu) return null;
  const copies = footprintKvCopies(m, a.gpus);
  return (
    <p>
      Budget = {a.gpus} × {formatBytesDecimal(gpu.memoryBytes)} × {formatNumber(a.memoryUtilization)} −{' '}
      {a.gpus} × {formatBytesDecimal(profiledReserveBytesPerGpu(a.gpus))} of vLLM&apos;s profiled activation
      reserve − weights ({formatNumber(m.totalParams / 1e9, 3)} B parameters × {DTYPE_BYTES[a.weightDtype]}{' '}
      bytes). One context = {formatWhole(a.contextTokens)} tokens × 2 × {m.layers} layers × {m.kvHeads} KV
      heads × {m.headDim} × {DTYPE_BYTES[a.kvDtype]} bytes{copies > 1 ? ` × ${copies} copies` : ''}. Divide
      and round down.
    </p>
  );
}

export function FootprintExplanation({ r }: { r: FootprintResult }) {
  return (
    <p>
      Usable HBM is {formatBytesDecimal(r.usableHbmBytes)}; vLLM&apos;s profiled activation reserve takes{' '}
      {formatBytesDecimal(r.reserveBytes)} and the weights {formatBytesDecimal(r.weightBytesTotal)}, leaving a
      KV budget of {formatBytesDecimal(r.kvBudgetBytes)}. One context is {formatBytesDecimal(r.contextBytes)}{' '}
      ({formatNumber(r.kvBytesPerToken)} bytes per token), so ⌊budget / context⌋ = {r.concurrentContexts}.{' '}
      {countWord(QUESTION_ARGS.gpus, true)} {shortName(acceleratorName(QUESTION_ARGS.acceleratorId))} GPUs,
      each with {formatBytesDecimal(findAccelerator(QUESTION_ARGS.acceleratorId)?.memoryBytes)} of HBM, keep
      only {r.concurrentContexts} long agent contexts warm: the rest must wait in a slower tier or be
      recomputed.
    </p>
  );
}

export function KvFootprintExercise() {
  const sim = useSimulation('kvFootprint', QUESTION_ARGS);
  const r = sim.result;
  return (
    <Exercise
      id="07-04-contexts-per-replica"
      question={<FootprintQuestion />}
      answer={r ? r.concurrentContexts : null}
      tolerance={0.04}
      unit="contexts"
      hint={<FootprintHint />}
      explanation={r ? <FootprintExplanation r={r} /> : null}
    />
  );
}
