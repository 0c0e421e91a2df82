/**
 * Parameters of lesson 07.09's three widgets (grammar-cost, grammar-cache, mask-overlap), in a schema module of
 * their own so the URL fuzz test (tests/url-fuzz.test.ts, which reads every src/widgets/<name>/schema.ts) covers them.
 */
import type { ParamSchema } from '../../state/paramSchema';
import { MASK_COST_CHOICES, OVERLAP_LIMITS } from '../../sim/lessons/grammar/overlap';
import { GRAMMAR_CACHE_LIMITS } from '../../sim/lessons/grammar/cacheScenario';
import { controlRange } from '../kit/controlRange';
import { GRAMMAR_COMPILE_PRESETS, GRAMMAR_CPU_DEFAULTS } from '../../sim/engine/fleet/dist';
import { MAX_LENGTHS, TOOL_COUNTS } from '../../sim/lessons/grammar/costSchemas';
import { formatDuration, formatNumber } from '../../lib/format';

/** The bounded maxLength values the cost sweep compiles (its first point is the unbounded schema). */
export const COST_BOUNDS = MAX_LENGTHS.filter((l): l is Exclude<typeof l, null> => l !== null);

export const GRAMMAR_CACHE_ID = 'grammar-cache';

export const grammarCacheSchema = {
  preset: {
    kind: 'select',
    label: 'Grammar engine (compile times)',
    default: 'xgrammar',
    options: [
      {
        value: 'xgrammar',
        label: `XGrammar (p50 ${formatNumber(GRAMMAR_COMPILE_PRESETS.xgrammar.median, 2)} s)`,
      },
      {
        value: 'llguidance',
        label: `LLGuidance (p50 ${formatDuration(GRAMMAR_COMPILE_PRESETS.llguidance.median, 1)})`,
      },
    ],
  },
  schemas: {
    kind: 'number',
    label: 'Distinct schemas the turns use',
    default: 4,
    ...controlRange(GRAMMAR_CACHE_LIMITS.schemas, { min: 1, max: 100_000 }),
    integer: true,
    scale: 'log',
    unit: 'schemas',
    help: 'a few for an agent with fixed tools; one per turn for one-shot schemas',
  },
  cacheCapacity: {
    kind: 'number',
    label: 'Grammar cache capacity',
    default: 64,
    ...controlRange(GRAMMAR_CACHE_LIMITS.cacheCapacity, { min: 0, max: 1024 }),
    integer: true,
    unit: 'grammars',
  },
  cpuThreads: {
    kind: 'number',
    label: 'CPU threads for compiles',
    default: GRAMMAR_CPU_DEFAULTS.threads,
    ...controlRange(GRAMMAR_CACHE_LIMITS.cpuThreads, { min: 1, max: 64 }),
    integer: true,
    unit: 'threads',
    help: "vLLM: half the host's CPUs; a compile holds one, and compiles queue when all are busy",
  },
  seed: { kind: 'seed', label: 'Seed', default: 1 },
} satisfies ParamSchema;

export const GRAMMAR_COST_ID = 'grammar-cost';

export const grammarCostSchema = {
  family: {
    kind: 'select',
    label: 'Schemas to compile',
    default: 'tools',
    options: [
      {
        value: 'tools',
        label: `Tool choice, ${TOOL_COUNTS[0]}–${TOOL_COUNTS[TOOL_COUNTS.length - 1]} tools`,
      },
      {
        value: 'maxLength',
        label: `One string, maxLength ${COST_BOUNDS[0]}–${COST_BOUNDS[COST_BOUNDS.length - 1]}`,
      },
    ],
  },
} satisfies ParamSchema;

export const MASK_OVERLAP_ID = 'mask-overlap';

export const maskCostLabel = (c: (typeof MASK_COST_CHOICES)[number]) =>
  `${c.name} (${formatNumber(c.us, 6)} µs)`;

export const maskOverlapSchema = {
  batch: {
    kind: 'number',
    label: 'Constrained sequences in the batch',
    default: 16,
    ...controlRange(OVERLAP_LIMITS.batch, { min: 1, max: 256 }),
    integer: true,
    unit: 'sequences',
  },
  mask: {
    kind: 'select',
    label: 'Mask cost of every sequence (MaskBench)',
    default: 'xgr-mean',
    options: MASK_COST_CHOICES.map((c) => ({ value: c.id, label: maskCostLabel(c) })),
  },
  threads: {
    kind: 'number',
    label: 'CPU threads for masks (the pool)',
    default: GRAMMAR_CPU_DEFAULTS.threads,
    ...controlRange(OVERLAP_LIMITS.threads, { min: 1, max: 64 }),
    integer: true,
    unit: 'threads',
    help: `The thread pool that fills masks in tasks; vLLM sizes it min(cores / 2, 8) and uses it only past ${GRAMMAR_CPU_DEFAULTS.serialUpTo} constrained sequences.`,
  },
  fill: {
    kind: 'select',
    label: 'How masks reach the threads',
    default: 'vllm',
    options: [
      { value: 'vllm', label: `vLLM: serially up to ${GRAMMAR_CPU_DEFAULTS.serialUpTo}, then the pool` },
      { value: 'perSequence', label: 'The pool, one sequence per task' },
    ],
  },
} satisfies ParamSchema;
