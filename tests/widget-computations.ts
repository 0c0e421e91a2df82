/**
 * Every widget of the registry with its parameter schema and the computation its settings ask for, called the way
 * the widget calls it (the widget's own request builder, the worker method in Node). Shared by the controls-and-core
 * test (tests/controls-core.test.ts).
 */
import type { ParamSchema, ParamValues } from '../src/state/paramSchema';
import { directContext, type JobContext } from '../src/worker/job';
import { methods, type MethodArgs, type MethodName } from '../src/worker/methods';
import * as affinity from '../src/widgets/session-affinity/schema';
import * as router from '../src/widgets/cache-router/schema';
import * as footprint from '../src/widgets/kv-footprint/schema';
import * as hierarchy from '../src/widgets/kv-hierarchy/schema';
import * as ladder from '../src/widgets/memory-ladder/schema';
import * as offload from '../src/widgets/kv-offload/schema';
import * as pause from '../src/widgets/tool-pause/schema';
import * as toolSchema from '../src/widgets/tool-schema/schema';
import * as structured from '../src/widgets/structured-output/schema';
import * as prefill from '../src/widgets/long-prefill/schema';
import * as compaction from '../src/widgets/context-compaction/schema';
import * as econ from '../src/widgets/agents-per-mw/schema';
import * as traffic from '../src/widgets/traffic-shape/schema';
import * as trajectory from '../src/widgets/trajectory-anatomy/schema';
import { arenaArgs } from '../src/widgets/tool-pause/PauseArena';
import { gridArgs } from '../src/widgets/agents-per-mw/LeverGrid';
import { sweepArgs } from '../src/widgets/agents-per-mw/SloSweep';
import { presetTexts } from '../src/widgets/structured-output/useTraceTexts';
import { grammarCacheSchema } from '../src/widgets/grammar-cost/GrammarCache';
import { grammarCostSchema } from '../src/widgets/grammar-cost/GrammarCost';
import { maskOverlapSchema } from '../src/widgets/grammar-cost/MaskOverlap';
import { grammarCacheScenario, type CacheScenarioParams } from '../src/sim/lessons/grammar/cacheScenario';
import {
  FILL_RULES,
  MASK_COST_CHOICES,
  maskStep,
  STEP_CONTEXT_TOKENS,
  threadsToHide,
} from '../src/sim/lessons/grammar/overlap';

/**
 * One call a widget makes: a worker method and its arguments, or (for widgets computed on the page) the core
 * function the page calls and its arguments (so a test can change one field as it does a method's).
 */
export type Call =
  | { method: MethodName; args: unknown }
  | { local: (args: never, ctx: JobContext<unknown>) => unknown; args: unknown };

const local = <A>(fn: (args: A, ctx: JobContext<unknown>) => unknown, args: A): Call => ({
  local: fn as (args: never, ctx: JobContext<unknown>) => unknown,
  args,
});

export interface WidgetComputation {
  id: string;
  schema: ParamSchema;
  calls(v: Record<string, unknown>): Call[];
  /** Needs the grammar engine (WASM) set up in Node. */
  grammar?: boolean;
  /** A run of the fleet simulator or longer: the test stops it at its first checkpoints once past validation. */
  long?: boolean;
  /** Which parameter each field a "cannot run" fix sets is, where the names differ (as the widget tells its frame). */
  fixFields?: Record<string, string>;
  /** Random combinations to try (default 12; 3 for long runs): fewer where one computation takes seconds. */
  runs?: number;
}

function entry<S extends ParamSchema>(
  id: string,
  schema: S,
  calls: (v: ParamValues<S>) => Call[],
  opts: Omit<WidgetComputation, 'id' | 'schema' | 'calls'> = {},
): WidgetComputation {
  return { id, schema, calls: (v) => calls(v as ParamValues<S>), ...opts };
}

const call = <M extends MethodName>(method: M, args: MethodArgs<M>): Call => ({ method, args });

export const WIDGET_COMPUTATIONS: readonly WidgetComputation[] = [
  entry(
    'traffic-shape',
    traffic.trafficShapeSchema,
    (v) => [call('workloadShape', traffic.trafficShapeArgs(v))],
    {
      runs: 4,
    },
  ),
  entry('trajectory-anatomy', trajectory.trajectorySchema, (v) => [
    call('agentTrajectory', trajectory.trajectoryArgs(v)),
  ]),
  entry(
    'affinity-fleet',
    affinity.affinityFleetSchema,
    (v) => [call('affinitySweep', affinity.affinityFleetArgs(v))],
    { long: true, fixFields: { modelId: 'model' } },
  ),
  // The synthetic trajectory; the recorded one replays a session of the shipped trace (its own test).
  entry(
    'affinity-replay',
    affinity.affinityReplaySchema,
    (v) => [call('affinityReplay', affinity.affinityReplayArgs(v))],
    { fixFields: { modelId: 'model' } },
  ),
  entry(
    'cache-router',
    router.cacheRouterSchema,
    (v) => [
      call('routerAnimation', router.cacheRouterArgs(v)),
      call('routerSummaries', router.cacheRouterComparisonArgs(v)),
    ],
    {
      long: true,
    },
  ),
  entry('round-robin-spread', router.spreadSchema, (v) => [call('routerSpread', router.spreadArgs(v))], {
    long: true,
  }),
  entry('router-sweep', router.routerSweepSchema, (v) => [call('routerSweep', router.routerSweepArgs(v))], {
    long: true,
  }),
  entry('kv-footprint', footprint.kvFootprintSchema, (v) => {
    const args = footprint.footprintArgs(v);
    const { modelId: _, ...perModel } = args;
    return [call('kvFootprint', args), call('contextsPerModel', perModel)];
  }),
  entry(
    'kv-hierarchy',
    hierarchy.kvHierarchySchema,
    (v) => [call('kvHierarchyRun', hierarchy.hierarchyArgs(v))],
    {
      long: true,
    },
  ),
  entry('memory-ladder', ladder.ladderSchema, (v) => [call('memoryLadder', ladder.ladderArgs(v))]),
  entry('min-link-bandwidth', offload.minBwSchema, (v) => [
    call('minBandwidthByModel', offload.minBwArgs(v)),
  ]),
  entry(
    'reload-or-recompute',
    offload.reloadSchema,
    (v) => [call('reloadVsRecompute', offload.reloadArgs(v))],
    { fixFields: { modelId: 'model' } },
  ),
  entry('pause-arena', pause.pauseArenaSchema, (v) => [call('pauseArena', arenaArgs(v))], { long: true }),
  entry('tool-latency', pause.toolLatencySchema, (v) => [call('toolLatency', pause.toolLatencyArgs(v))]),
  // A layout at its maxima takes seconds (docs/performance.md): a few combinations.
  entry(
    'tool-block-layout',
    toolSchema.layoutSchema,
    (v) => [call('toolLayouts', toolSchema.layoutArgs(v))],
    { runs: 3, fixFields: { modelId: 'model' } },
  ),
  entry('tool-schema-tax', toolSchema.taxSchema, (v) => [call('toolSchemaTax', toolSchema.taxArgs(v))], {
    fixFields: { modelId: 'model' },
  }),
  entry('asking-nicely', structured.askNicelySchema, (v) => [
    call('grammarAskNicely', structured.askNicelyArgs(v)),
  ]),
  entry(
    'mask-logits',
    structured.maskLogitsSchema,
    (v) => [call('grammarMaskLogits', structured.maskLogitsArgs(v))],
    {
      grammar: true,
    },
  ),
  entry(
    'mask-stepper',
    structured.maskStepperSchema,
    (v) => [call('grammarMaskTrace', presetTexts(v.preset))],
    {
      grammar: true,
    },
  ),
  entry(
    'grammar-cache',
    grammarCacheSchema,
    (v) => {
      const preset = v.preset === 'llguidance' ? 'llguidance' : 'xgrammar';
      const s = { preset, schemas: v.schemas, cpuThreads: v.cpuThreads, seed: v.seed } as const;
      // The page builds each scenario (checking the lesson's limits) and runs it in the worker's runFleet.
      const run = (p: CacheScenarioParams, ctx: JobContext<unknown>) =>
        methods.runFleet({ scenario: grammarCacheScenario(p), includeSeries: false }, ctx);
      return [local(run, { ...s, cacheCapacity: v.cacheCapacity }), local(run, { ...s, cacheCapacity: 0 })];
    },
    { long: true },
  ),
  entry(
    'grammar-cost',
    grammarCostSchema,
    (v) => [call('grammarCostSweep', { family: v.family === 'maxLength' ? 'maxLength' : 'tools' })],
    { grammar: true, long: true },
  ),
  entry('mask-overlap', maskOverlapSchema, (v) => {
    const choice = MASK_COST_CHOICES.find((c) => c.id === v.mask) ?? MASK_COST_CHOICES[2];
    const rule = v.fill === 'perSequence' ? FILL_RULES.perSequence : FILL_RULES.vllm;
    const base = { batch: v.batch, contextTokens: STEP_CONTEXT_TOKENS, maskS: choice.us * 1e-6, ...rule };
    return [
      local(maskStep, { ...base, threads: v.threads }),
      local((a: typeof base) => threadsToHide(a), base),
    ];
  }),
  entry(
    'chunk-size-tradeoff',
    prefill.tradeoffSchema,
    (v) => [call('chunkTradeoff', prefill.tradeoffArgs(v))],
    { fixFields: { modelId: 'model' } },
  ),
  entry(
    'chunked-prefill-timeline',
    prefill.timelineSchema,
    (v) => [call('prefillTimelineRun', prefill.timelineArgs(v))],
    { fixFields: { modelId: 'model' } },
  ),
  entry(
    'hit-rate-vs-kernel',
    prefill.hitKernelSchema,
    (v) => [call('hitRateVsKernel', prefill.hitKernelArgs(v))],
    { fixFields: { modelId: 'model' } },
  ),
  entry('edit-the-prompt', compaction.editSchema, (v) => [call('compactionEdit', compaction.editArgs(v))], {
    fixFields: { modelId: 'model' },
  }),
  entry(
    'compaction-payback',
    compaction.paybackSchema,
    (v) => [call('compactionPayback', compaction.paybackArgs(v))],
    { fixFields: { modelId: 'model' } },
  ),
  entry('cost-levers', econ.leverGridSchema, (v) => [call('leverGrid', gridArgs(v))], { long: true }),
  entry('slo-sweep', econ.sloSweepSchema, (v) => [call('sloSweep', sweepArgs(v))], { long: true }),
];

/** Thrown by the test's job context once a long computation is past its validation and computing. */
export class StartedComputing extends Error {}

/** A job context that lets a long computation run `budgetMs`, then stops it: it validated and started. */
export function budgetContext(budgetMs: number): JobContext<unknown> {
  if (!Number.isFinite(budgetMs)) return directContext();
  const until = Date.now() + budgetMs;
  const check = async () => {
    if (Date.now() > until) throw new StartedComputing('started');
  };
  return { isCancelled: () => Date.now() > until, checkpoint: check, emit: check };
}

/** Run one call as the widget's worker would. */
export async function runCall(c: Call, ctx: JobContext<unknown>): Promise<unknown> {
  if ('local' in c)
    return await (c.local as (args: unknown, ctx: JobContext<unknown>) => unknown)(c.args, ctx);
  const fn = methods[c.method] as (args: unknown, ctx: JobContext<unknown>) => unknown;
  return await fn(c.args, ctx);
}
