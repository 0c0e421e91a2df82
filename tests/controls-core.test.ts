/**
 * Controls and core agree (#12): for every widget, every value its controls offer (each control at its minimum, its
 * maximum and between, the others at their defaults; then random combinations of all of them, drawn with
 * fast-check and read through the schema's own coercion as a control or a link would set them) either computes or
 * comes back as a typed "cannot run" outcome in the reader's words, whose fixes are values the controls offer and
 * do run. Nothing throws. Long runs (the fleet simulator) are stopped a moment after they start computing: what
 * refuses a setting does so before the first checkpoint.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCannotRun, type CannotRun } from '../src/sim/engine/cannotRun';
import { coerceValue, defaultValues, SEED_MAX, type ParamSpec } from '../src/state/paramSchema';
import { WIDGETS } from '../src/widgets/registry';
import { JobCancelled } from '../src/worker/job';
import { methods } from '../src/worker/methods';
import { AFFINITY_LIMITS } from '../src/sim/lessons/affinityModel';
import { limitRefusal } from '../src/sim/engine/limits';
import { GPUS_PER_REPLICA } from '../src/sim/engine/hardware';
import { GPUS_PER_REPLICA_OFFERED } from '../src/widgets/kit/commonParams';
import { affinityReplayArgs, affinityReplaySchema } from '../src/widgets/session-affinity/schema';
import {
  budgetContext,
  runCall,
  StartedComputing,
  WIDGET_COMPUTATIONS,
  type WidgetComputation,
} from './widget-computations';

/** How long a long computation runs before the test stops it, ms. */
const LONG_BUDGET_MS = 150;

beforeAll(() => {
  // The grammar engine (XGrammar WASM) in Node, as tests/lesson-07-08-logits.test.ts sets it up.
  const require = createRequire(import.meta.url);
  const g = globalThis as Record<string, unknown>;
  g.require ??= require;
  g.__filename ??= require.resolve('@mlc-ai/web-xgrammar');
});

type Outcome = { kind: 'computed' } | CannotRun;

/** Run every call a widget makes for these values; a throw fails the test with the setting that caused it. */
async function outcomeOf(w: WidgetComputation, v: Record<string, unknown>): Promise<Outcome> {
  for (const c of w.calls(v)) {
    let r: unknown;
    try {
      r = await runCall(c, budgetContext(w.long ? LONG_BUDGET_MS : Infinity));
    } catch (e) {
      if (e instanceof StartedComputing || e instanceof JobCancelled) continue;
      throw new Error(`${w.id} refused ${JSON.stringify(v)}: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    if (isCannotRun(r)) return r;
  }
  return { kind: 'computed' };
}

/** Internal wording a reader must never meet: identifiers in a refusal, stack traces, e-notation. */
const INTERNAL =
  /must be a whole number|hbmBlocks|hardware\.tp|\bundefined\b|\bNaN\b|TypeError|\d(\.\d+)?e[+-]?\d/;

async function expectRunsOrSaysWhy(w: WidgetComputation, v: Record<string, unknown>) {
  const out = await outcomeOf(w, v);
  if (out.kind === 'computed') return;
  expect(out.reason, w.id).not.toMatch(INTERNAL);
  expect(out.reason.length, w.id).toBeGreaterThan(20);
  // Every fix a control offers runs (the frame shows only those).
  for (const fix of out.fixes) {
    const set: Record<string, unknown> = {};
    let offered = true;
    for (const [field, value] of Object.entries(fix.set)) {
      const key = w.fixFields?.[field] ?? field;
      const spec = w.schema[key];
      if (!spec || !coerceValue(spec, value).valid) offered = false;
      set[key] = value;
    }
    if (!offered) continue;
    const fixed = await outcomeOf(w, { ...v, ...set });
    expect(fixed.kind, `${w.id}: "${fix.label}" at ${JSON.stringify(v)}`).toBe('computed');
  }
}

/** A control's minimum, maximum and a value between (its options, both states), as the control sweep picks them. */
function extremes(spec: ParamSpec): unknown[] {
  switch (spec.kind) {
    case 'number': {
      const mid =
        spec.scale === 'log' && spec.min > 0 ? Math.sqrt(spec.min * spec.max) : (spec.min + spec.max) / 2;
      return [spec.min, spec.max, coerceValue(spec, mid).value];
    }
    case 'select':
      return spec.options.map((o) => o.value);
    case 'boolean':
      return [false, true];
    case 'seed':
      return [0, SEED_MAX];
  }
}

/** Any value a control offers: a raw number anywhere in (and past) its range, read through the schema's coercion. */
function offered(spec: ParamSpec): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case 'number': {
      const span = spec.max - spec.min;
      return fc
        .oneof(
          fc.constantFrom(spec.min, spec.max),
          fc.double({ min: spec.min - span * 0.1, max: spec.max + span * 0.1, noNaN: true }),
          spec.scale === 'log' && spec.min > 0
            ? fc.double({ min: 0, max: 1, noNaN: true }).map((u) => spec.min * (spec.max / spec.min) ** u)
            : fc.constant(spec.default),
        )
        .map((raw) => coerceValue(spec, raw).value);
    }
    case 'select':
      return fc.constantFrom(...spec.options.map((o) => o.value));
    case 'boolean':
      return fc.boolean();
    case 'seed':
      return fc.integer({ min: 0, max: SEED_MAX });
  }
}

describe('controls and core agree', () => {
  it('every widget of the registry has its computation listed', () => {
    expect(WIDGET_COMPUTATIONS.map((w) => w.id).sort()).toEqual(WIDGETS.map((w) => w.id).sort());
  });

  for (const w of WIDGET_COMPUTATIONS) {
    it(`${w.id}: every control at its minimum, maximum and between computes or says why not`, async () => {
      const d = defaultValues(w.schema) as Record<string, unknown>;
      for (const [k, spec] of Object.entries(w.schema))
        for (const x of extremes(spec)) await expectRunsOrSaysWhy(w, { ...d, [k]: x });
    }, 240_000);

    it(`${w.id}: random combinations of its controls compute or say why not`, async () => {
      const record = fc.record(
        Object.fromEntries(Object.entries(w.schema).map(([k, spec]) => [k, offered(spec)])),
      ) as fc.Arbitrary<Record<string, unknown>>;
      await fc.assert(
        fc.asyncProperty(record, (v) => expectRunsOrSaysWhy(w, v)),
        { numRuns: w.runs ?? (w.long || w.grammar ? 3 : 12), seed: 12 },
      );
    }, 240_000);
  }
});

describe('the known cases of issue 12', () => {
  const byId = (id: string) => WIDGET_COMPUTATIONS.find((w) => w.id === id)!;
  it('affinity-replay at one GPU (the slider’s minimum) cannot run, and says which GPU count would', async () => {
    const w = byId('affinity-replay');
    const out = await outcomeOf(w, { ...defaultValues(w.schema), gpus: 1 });
    expect(out.kind).toBe('cannot-run');
    if (out.kind !== 'cannot-run') return;
    expect(out.reason).toMatch(/^Llama 3\.1 70B does not fit on 1 × H100 SXM: its weights \(141\.\d GB\)/);
    expect(out.fixes[0]).toEqual({ label: 'Use 2 GPUs per replica', set: { gpus: 2 } });
  });
  it('affinity-fleet with a 70B model on its one GPU cannot run; two GPUs or an 8B model would', async () => {
    const w = byId('affinity-fleet');
    const out = await outcomeOf(w, { ...defaultValues(w.schema), model: 'llama-3.1-70b' });
    expect(out.kind).toBe('cannot-run');
    if (out.kind !== 'cannot-run') return;
    expect(out.fixes.map((f) => f.set)).toEqual([{ gpus: 2 }, { modelId: expect.any(String) }]);
  });
  it('the analytic widgets too: 405B on 8 H100s cannot run in 07.05, 07.07, 07.10 or 07.11; 12 GPUs would', async () => {
    const analytic = [
      'chunked-prefill-timeline',
      'compaction-payback',
      'reload-or-recompute',
      'tool-schema-tax',
      'tool-block-layout',
    ];
    for (const id of analytic) {
      const w = byId(id);
      const out = await outcomeOf(w, { ...defaultValues(w.schema), model: 'llama-3.1-405b', gpus: 8 });
      expect(out.kind, id).toBe('cannot-run');
      if (out.kind !== 'cannot-run') continue;
      expect(out.reason, id).toMatch(/^Llama 3\.1 405B does not fit on 8 × H100 SXM/);
      expect(out.fixes[0], id).toEqual({ label: 'Use 12 GPUs per replica', set: { gpus: 12 } });
    }
  });
  it('"New tokens per turn" typed as 66.9 is read as a value the core accepts', async () => {
    const w = byId('tool-block-layout');
    const { value } = coerceValue(w.schema.newTokens, 66.9);
    expect(value).toBe(70);
    expect((await outcomeOf(w, { ...defaultValues(w.schema), newTokens: value })).kind).toBe('computed');
  });
});

describe('one range for a control and its core', () => {
  it('the replay: the core accepts each control’s whole range and refuses just past it (one constant for both)', () => {
    const base = { ...defaultValues(affinityReplaySchema), source: 'synthetic' };
    for (const key of ['replicas', 'turns', 'toolResultTokens'] as const) {
      const spec = affinityReplaySchema[key];
      expect([spec.min, spec.max]).toEqual([AFFINITY_LIMITS[key].min, AFFINITY_LIMITS[key].max]);
      for (const ok of [spec.min, spec.max])
        expect(
          () => methods.affinityReplay(affinityReplayArgs({ ...base, [key]: ok })),
          `${key} ${ok}`,
        ).not.toThrow();
      for (const bad of [spec.min - 1, spec.max + 1])
        expect(
          () => methods.affinityReplay(affinityReplayArgs({ ...base, [key]: bad })),
          `${key} ${bad}`,
        ).toThrow(limitRefusal(AFFINITY_LIMITS[key], bad)!);
    }
  });
  // Each GPUs control against its method's refusals: tests/control-ranges.test.ts.
  it('GPUs per replica: every widget offers the same range, inside what the core accepts', () => {
    expect(GPUS_PER_REPLICA_OFFERED.min).toBe(GPUS_PER_REPLICA.min);
    expect(GPUS_PER_REPLICA_OFFERED.max).toBeLessThanOrEqual(GPUS_PER_REPLICA.max);
    for (const w of WIDGET_COMPUTATIONS) {
      const gpus = w.schema.gpus;
      if (gpus?.kind !== 'number') continue;
      expect([gpus.min, gpus.max], w.id).toEqual([
        GPUS_PER_REPLICA_OFFERED.min,
        GPUS_PER_REPLICA_OFFERED.max,
      ]);
    }
  });
});
