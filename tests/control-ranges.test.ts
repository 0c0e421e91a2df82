/**
 * One range, one source (#12, "controls and core agree"): for every widget of the registry, each numeric control
 * the core checks is a request field with a Limit (declared beside the check: src/worker/limits/, or a lesson's
 * model or setup module); the control's whole range, read through the widget's own request builder, lies inside
 * that limit; the core accepts the limit's ends and refuses one step past each end with the limit's worded
 * message. Every numeric control of every widget is either listed here or named as one the core does not check,
 * so a new control (or a new widget) cannot slip past.
 */
import { describe, expect, it } from 'vitest';
import { defaultValues, type NumberParam } from '../src/state/paramSchema';
import {
  limit,
  limitRefusal,
  refuseOutside,
  refuseOutsideEach,
  withinLimit,
  type Limit,
} from '../src/sim/engine/limits';
import { JobCancelled } from '../src/worker/job';
import { PREFILL_LIMITS } from '../src/worker/limits/prefill';
import { ROUTER_LIMITS as R } from '../src/worker/limits/router';
import { TOOL_LATENCY_LIMITS } from '../src/worker/limits/pause';
import { LAYOUT_LIMITS, TOOL_TAX_LIMITS } from '../src/worker/limits/schema';
import { PAUSE_ARENA_LIMITS } from '../src/sim/lessons/pauseLabSetup';
import { ECON_LIMITS } from '../src/sim/lessons/economicsLabSetup';
import { AFFINITY_LIMITS as A } from '../src/sim/lessons/affinityModel';
import { WORKLOAD_LIMITS as W } from '../src/sim/lessons/agentWorkloadSetup';
import { HIERARCHY_LIMITS } from '../src/sim/lessons/hierarchyLab';
import { FOOTPRINT_LIMITS, LADDER_LIMITS } from '../src/worker/limits/hierarchy';
import { OFFLOAD_LIMITS } from '../src/worker/limits/offload';
import { ASK_NICELY_LIMITS } from '../src/sim/lessons/grammar/limits';
import { GRAMMAR_CACHE_LIMITS } from '../src/sim/lessons/grammar/cacheScenario';
import { OVERLAP_LIMITS } from '../src/sim/lessons/grammar/overlap';
import { GEMM_EFFICIENCY, GPUS_PER_REPLICA } from '../src/sim/engine/cost';
import {
  EDIT_LIMITS as E,
  PAYBACK_LIMITS,
  PRICE_LIMITS,
  SESSION_LIMITS,
} from '../src/sim/lessons/compactionLimits';
import {
  budgetContext,
  runCall,
  StartedComputing,
  WIDGET_COMPUTATIONS,
  type Call,
  type WidgetComputation,
} from './widget-computations';

/** A control the core checks: the request field it sets (a dotted path into the arguments) and the core's limit. */
interface Shared {
  field: string;
  limit: Limit;
  /** Other controls set with it, where the field is sent only then (07.11's edit-specific controls). */
  with?: Record<string, unknown>;
  /** The control, when it is not the entry's key (one control that sets different fields as other controls vary). */
  control?: string;
  /**
   * Fields the core checks against this one (07.11: the head is part of the context), set with it as the widget's
   * builder keeps them, so a value at the limit's end is tried in a request that is otherwise valid.
   */
  also?: (value: number) => Record<string, number>;
}

interface RangeCase {
  /** Numeric controls the core checks, by control key. */
  shared: Record<string, Shared>;
  /** Numeric controls the core does not check (read on the page, or chosen among fixed values), and why. */
  pageOnly?: Record<string, string>;
}

const P = PREFILL_LIMITS;
const traffic = {
  decodes: { field: 'decodes', limit: P.decodes },
  decodeContext: { field: 'decodeContext', limit: P.decodeContext },
  promptTokens: { field: 'promptTokens', limit: P.promptTokens },
};

/** Every widget's "GPUs per replica" control (tpParam): one engine limit, sent as `gpus` or (07.05, 07.11) `tp`. */
const gpusAs = (field: 'gpus' | 'tp') => ({ gpus: { field, limit: GPUS_PER_REPLICA } });
const GPUS = gpusAs('gpus');
const TP = gpusAs('tp');

const SLO = {
  ttftP90S: { field: 'slo.ttftP90S', limit: ECON_LIMITS.ttftP90S },
  tpotP90S: { field: 'slo.tpotP90S', limit: ECON_LIMITS.tpotP90S },
};
const PRICES = 'a price, priced on the page from the computed GPU-seconds and energy';

/** Controls whose key is the request field the core checks, each with its limit. */
function sameNames(limits: Record<string, Limit>, keys: readonly string[]): Record<string, Shared> {
  return Object.fromEntries(keys.map((k) => [k, { field: k, limit: limits[k] }]));
}

export const SHARED_RANGES: Record<string, RangeCase> = {
  'asking-nicely': { shared: sameNames(ASK_NICELY_LIMITS, ['eps', 'tokens', 'calls']) },
  // The schema and the document are texts, refused past GRAMMAR_TEXT_LIMITS (tests/lesson-07-08-limits.test.ts).
  'mask-stepper': { shared: {} },
  'mask-logits': { shared: {} },
  'grammar-cost': { shared: {} },
  'grammar-cache': { shared: sameNames(GRAMMAR_CACHE_LIMITS, ['schemas', 'cacheCapacity', 'cpuThreads']) },
  'mask-overlap': { shared: sameNames(OVERLAP_LIMITS, ['batch', 'threads']) },
  'edit-the-prompt': {
    shared: {
      editTurn: { field: 'edit.fromTurn', limit: E.fromTurn },
      retrieveTurn: {
        field: 'edit.atTurn',
        limit: E.atTurn,
        with: { edit: 'retrieve' },
        control: 'editTurn',
      },
      span: { field: 'edit.span', limit: E.span },
      summaryTokens: { field: 'edit.summaryTokens', limit: E.summaryTokens },
      keepLast: { field: 'edit.keepLast', limit: E.keepLast, with: { edit: 'prune' } },
      stubTokens: { field: 'edit.stubTokens', limit: E.stubTokens, with: { edit: 'prune' } },
      docTokens: { field: 'edit.docTokens', limit: E.docTokens, with: { edit: 'retrieve' } },
      tokenPosition: { field: 'edit.position', limit: E.position, with: { edit: 'token' } },
      turns: { field: 'shape.turns', limit: SESSION_LIMITS.turns },
      outputTokens: { field: 'shape.outputTokens', limit: SESSION_LIMITS.outputTokens },
      resultTokens: { field: 'shape.resultTokens', limit: SESSION_LIMITS.resultTokens },
      gemmEfficiency: { field: 'gemmEfficiency', limit: GEMM_EFFICIENCY },
      ...TP,
    },
  },
  'compaction-payback': {
    shared: {
      ...Object.fromEntries(
        (['thresholdTokens', 'summaryTokens', 'keepLast', 'stubTokens', 'turns'] as const).map((k) => [
          k,
          { field: `params.${k}`, limit: PAYBACK_LIMITS[k] },
        ]),
      ),
      // The head is part of the context, the output part of the growth (the core refuses either pair reversed).
      contextTokens: {
        field: 'params.contextTokens',
        limit: PAYBACK_LIMITS.contextTokens,
        also: (v) => ({ 'params.headTokens': within(PAYBACK_LIMITS.headTokens, Math.min(8_000, v)) }),
      },
      headTokens: {
        field: 'params.headTokens',
        limit: PAYBACK_LIMITS.headTokens,
        also: (v) => ({ 'params.contextTokens': within(PAYBACK_LIMITS.contextTokens, Math.max(80_000, v)) }),
      },
      growthTokens: {
        field: 'params.growthTokens',
        limit: PAYBACK_LIMITS.growthTokens,
        also: (v) => ({ 'params.outputTokens': within(PAYBACK_LIMITS.outputTokens, Math.min(300, v)) }),
      },
      outputTokens: {
        field: 'params.outputTokens',
        limit: PAYBACK_LIMITS.outputTokens,
        also: (v) => ({ 'params.growthTokens': within(PAYBACK_LIMITS.growthTokens, Math.max(1_750, v)) }),
      },
      inputPrice: { field: 'prices.inputPerMTok', limit: PRICE_LIMITS.inputPerMTok },
      outputPrice: { field: 'prices.outputPerMTok', limit: PRICE_LIMITS.outputPerMTok },
      readMultiplier: { field: 'prices.cacheReadMultiplier', limit: PRICE_LIMITS.cacheReadMultiplier },
      writeMultiplier: { field: 'prices.cacheWriteMultiplier', limit: PRICE_LIMITS.cacheWriteMultiplier },
      gemmEfficiency: { field: 'gemmEfficiency', limit: GEMM_EFFICIENCY },
      ...TP,
    },
  },
  'reload-or-recompute': {
    shared: {
      ...sameNames(OFFLOAD_LIMITS, ['customGBps', 'customLatencyUs', 'prefixTokens']),
      gemmEfficiency: { field: 'gemmEfficiency', limit: GEMM_EFFICIENCY },
      ...TP,
    },
  },
  'min-link-bandwidth': {
    shared: {
      prefixTokens: { field: 'prefixTokens', limit: OFFLOAD_LIMITS.prefixTokens },
      gemmEfficiency: { field: 'gemmEfficiency', limit: GEMM_EFFICIENCY },
      ...TP,
    },
  },
  'kv-footprint': {
    shared: { ...sameNames(FOOTPRINT_LIMITS, ['contextTokens', 'memoryUtilization']), ...GPUS },
  },
  'memory-ladder': { shared: sameNames(LADDER_LIMITS, ['contextTokens', 'agents', 'dramTB', 'poolTB']) },
  'kv-hierarchy': {
    shared: sameNames(HIERARCHY_LIMITS, ['sessions', 'hbmGB', 'dramGB', 'nvmeGB', 'poolGB']),
  },
  'traffic-shape': {
    shared: {
      sessions: { field: 'sessions', limit: W.sessions },
      medianTurns: { field: 'medianTurns', limit: W.medianTurns },
    },
  },
  'trajectory-anatomy': { shared: { medianTurns: { field: 'medianTurns', limit: W.medianTurns } } },
  'affinity-replay': {
    shared: {
      replicas: { field: 'replicas', limit: A.replicas },
      turns: { field: 'turns', limit: A.turns },
      toolResultTokens: { field: 'toolResultTokens', limit: A.toolResultTokens },
      ...GPUS,
    },
    pageOnly: {
      session: 'picks which recorded session of the loaded trace is sent (SESSION_PICKER_MAX, its own test)',
    },
  },
  'affinity-fleet': {
    shared: { agentsPerReplica: { field: 'agentsPerReplica', limit: A.agentsPerReplica }, ...GPUS },
  },
  'slo-sweep': { shared: SLO, pageOnly: { pue: PRICES } },
  'cost-levers': { shared: SLO, pageOnly: { pue: PRICES, gpuHourUSD: PRICES, kwhUSD: PRICES } },
  'tool-schema-tax': {
    shared: {
      toolCount: { field: 'toolCount', limit: TOOL_TAX_LIMITS.toolCount },
      turns: { field: 'turns', limit: TOOL_TAX_LIMITS.turns },
      changeEvery: { field: 'changeEvery', limit: TOOL_TAX_LIMITS.changeEvery },
      inputPerMTok: { field: 'inputPerMTok', limit: TOOL_TAX_LIMITS.inputPerMTok },
      ...GPUS,
    },
  },
  'tool-block-layout': {
    shared: {
      ...Object.fromEntries(
        (
          [
            'toolCount',
            'systemTokens',
            'newTokens',
            'outputTokens',
            'timestampTokens',
            'turns',
            'changeTurn',
          ] as const
        ).map((k) => [k, { field: k, limit: LAYOUT_LIMITS[k] }]),
      ),
      ...GPUS,
    },
  },
  'pause-arena': {
    shared: {
      ttlS: { field: 'ttlS', limit: PAUSE_ARENA_LIMITS.ttlS },
      agents: { field: 'agents', limit: PAUSE_ARENA_LIMITS.agents },
    },
  },
  'tool-latency': {
    shared: {
      ttlS: { field: 'ttlS', limit: TOOL_LATENCY_LIMITS.ttlS },
      contextTokens: { field: 'contextTokens', limit: TOOL_LATENCY_LIMITS.contextTokens },
    },
  },
  'cache-router': {
    shared: {
      replicas: { field: 'replicas', limit: R.replicas },
      sessionsPerS: { field: 'sessionsPerS', limit: R.sessionsPerS },
      loadThreshold: { field: 'loadThreshold', limit: R.loadThreshold },
      poolGB: { field: 'poolGB', limit: R.poolGB },
    },
  },
  'router-sweep': {
    shared: {
      replicas: { field: 'replicas', limit: R.replicas },
      loadThreshold: { field: 'loadThreshold', limit: R.loadThreshold },
    },
    pageOnly: { sloS: 'the TTFT target is read against the sweep on the page' },
  },
  'round-robin-spread': {
    shared: { perReplicaRate: { field: 'perReplicaRate', limit: R.perReplicaRate } },
    pageOnly: { inspect: 'one of the fleet sizes the spread ran, read out on the page' },
  },
  'chunked-prefill-timeline': {
    shared: { chunk: { field: 'chunk', limit: P.chunk }, ...traffic, ...GPUS },
  },
  'chunk-size-tradeoff': {
    shared: {
      chunk: { field: 'chunk', limit: P.chunk },
      ttftSlo: { field: 'ttftSloS', limit: P.ttftSloS },
      itlSlo: { field: 'itlSloS', limit: P.itlSloS },
      ...traffic,
      ...GPUS,
    },
  },
  'hit-rate-vs-kernel': {
    shared: {
      hitFrom: { field: 'hitFrom', limit: P.hitRate },
      hitTo: { field: 'hitTo', limit: P.hitRate },
      speedup: { field: 'speedup', limit: P.speedup },
      contextTokens: { field: 'contextTokens', limit: P.contextTokens },
      ...GPUS,
    },
  },
};

/** `v` brought inside `l`. */
function within(l: Limit, v: number): number {
  return Math.min(l.max, Math.max(l.min, v));
}

function get(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

function withField(obj: unknown, path: string, value: number): unknown {
  const [head, ...rest] = path.split('.');
  const o = obj as Record<string, unknown>;
  return { ...o, [head]: rest.length ? withField(o[head], rest.join('.'), value) : value };
}

/** The widget's calls that carry this field, at the given control values (07.04's footprint makes two). */
function callsWith(
  w: WidgetComputation,
  v: Record<string, unknown>,
  field: string,
): (Call & { args: unknown })[] {
  const cs = w
    .calls(v)
    .filter((x): x is Call & { args: unknown } => 'args' in x && get(x.args, field) !== undefined);
  if (!cs.length) throw new Error(`${w.id}: no call of the widget carries "${field}"`);
  return cs;
}

/** The first of them. */
function callWith(w: WidgetComputation, v: Record<string, unknown>, field: string): Call & { args: unknown } {
  return callsWith(w, v, field)[0];
}

/** What the method says to these arguments: null when it computes (or cannot run, or was stopped computing). */
async function refusalOf(c: Call & { args: unknown }, long: boolean): Promise<string | null> {
  try {
    await runCall(c, budgetContext(long ? 150 : 2_000));
    return null;
  } catch (e) {
    if (e instanceof StartedComputing || e instanceof JobCancelled) return null;
    return e instanceof Error ? e.message : String(e);
  }
}

/** One step past an end of a limit: 1 for whole numbers, else a thousandth of the range's order of magnitude. */
function stepOf(l: Limit): number {
  if (l.integer) return 1;
  return 10 ** (Math.floor(Math.log10(l.max - l.min)) - 3);
}

const byId = new Map(WIDGET_COMPUTATIONS.map((w) => [w.id, w]));

describe('one range, one source: each control’s range lies inside what its worker method accepts', () => {
  it('every widget of the registry is listed, and every listed widget exists', () => {
    expect(Object.keys(SHARED_RANGES).sort()).toEqual([...byId.keys()].sort());
  });

  for (const [id, rc] of Object.entries(SHARED_RANGES)) {
    const w = byId.get(id)!;
    it(`${id}: every numeric control is listed (checked by the core, or read on the page)`, () => {
      const numeric = Object.entries(w.schema)
        .filter(([, s]) => s.kind === 'number')
        .map(([k]) => k);
      const checked = Object.entries(rc.shared).map(([k, sh]) => sh.control ?? k);
      const listed = new Set([...checked, ...Object.keys(rc.pageOnly ?? {})]);
      expect(numeric.sort()).toEqual([...listed].sort());
    });

    for (const [entry, { field, limit, with: alongside, control, also }] of Object.entries(rc.shared)) {
      const key = control ?? entry;
      it(`${id}.${entry}: its range is inside the core's ${field} (${limit.min}–${limit.max}); one step past is refused in words`, async () => {
        const spec = w.schema[key] as NumberParam;
        const d = { ...defaultValues(w.schema), ...alongside } as Record<string, unknown>;
        // The control's ends, as the widget's builder sends them (to every call that carries the field).
        for (const x of [spec.min, spec.max])
          for (const c of callsWith(w, { ...d, [key]: x }, field)) {
            const sent = get(c.args, field);
            expect(withinLimit(limit, sent), `${key}=${x} sends ${field}=${String(sent)}`).toBe(true);
          }
        // Each call's core accepts the limit's ends and refuses one step past each with the limit's own words.
        for (const base of callsWith(w, d, field)) {
          const name = 'method' in base ? base.method : 'the page';
          const at = (value: number) => ({
            ...base,
            args: Object.entries({ ...also?.(value), [field]: value }).reduce(
              (a, [f, x]) => withField(a, f, x),
              base.args,
            ),
          });
          for (const ok of [limit.min, limit.max])
            expect(await refusalOf(at(ok), !!w.long), `${name}: ${field}=${ok}`).toBeNull();
          const step = stepOf(limit);
          for (const bad of [limit.min - step, limit.max + step]) {
            const why = await refusalOf(at(bad), !!w.long);
            expect(why, `${name}: ${field}=${bad}`).toBe(limitRefusal(limit, bad));
            expect(why).not.toMatch(/\d(\.\d+)?e[+-]?\d|undefined|NaN/);
          }
        }
      }, 60_000);
    }
  }
});

describe('07.11: the settings the core checks against each other are refused in words', () => {
  const w = byId.get('compaction-payback')!;
  const base = callWith(w, defaultValues(w.schema) as Record<string, unknown>, 'params.headTokens');
  const refusal = (patch: Record<string, number>) =>
    refusalOf(
      {
        ...base,
        args: Object.entries(patch).reduce((a, [f, x]) => withField(a, f, x), base.args),
      },
      false,
    );
  it('a head longer than the context, an output longer than the growth', async () => {
    expect(await refusal({ 'params.headTokens': 90_000 })).toBe(
      'The head kept (90,000 tokens) is part of the context, so it cannot be more than the context now (80,000).',
    );
    expect(await refusal({ 'params.outputTokens': 2_000 })).toBe(
      'The model output per turn (2,000 tokens) is part of the context growth per turn, so it cannot be more than it (1,750).',
    );
  });
});

describe('choices that send a number lie inside the limit the core checks', () => {
  const options = (id: string, key: string) => {
    const spec = byId.get(id)!.schema[key];
    if (spec.kind !== 'select') throw new Error(`${id}.${key} is not a select`);
    return spec.options.map((o) => o.value).filter((v) => v !== 'auto');
  };
  it('07.11’s KV block sizes and 07.05’s links in parallel', () => {
    for (const v of options('edit-the-prompt', 'blockSize'))
      expect(withinLimit(E.blockSize, Number(v)), `blockSize ${v}`).toBe(true);
    for (const v of options('reload-or-recompute', 'linkCount'))
      expect(withinLimit(OFFLOAD_LIMITS.linkCount, Number(v)), `linkCount ${v}`).toBe(true);
  });
});

describe('refuseOutside and refuseOutsideEach', () => {
  const L = {
    a: limit('the first setting', 1, 10, { integer: true }),
    b: limit('the second setting', 0, 1),
  };
  it('pass values inside their limits and refuse the first one outside, in the order of the keys, in words', () => {
    expect(() => refuseOutsideEach(L, { a: 3, b: 0.5 }, ['a', 'b'])).not.toThrow();
    expect(() => refuseOutsideEach(L, { a: 0, b: 2 }, ['b', 'a'])).toThrow(
      new RangeError(limitRefusal(L.b, 2)!),
    );
    expect(() => refuseOutsideEach(L, { a: 2.5 }, ['a'])).toThrow(limitRefusal(L.a, 2.5)!);
    expect(() => refuseOutside(L.a, '3')).toThrow(RangeError);
  });
});
