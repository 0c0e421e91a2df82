import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { SCHEMA_PRESETS } from '../../sim/lessons/grammar/presets';
import { formatPercent } from '../../lib/format';
import { ASK_NICELY_LIMITS } from '../../sim/lessons/grammar/limits';
import { controlRange } from '../kit/controlRange';
import type { ConstrainMode } from '../../worker/grammarLogitsEngine';

export const MASK_STEPPER_ID = 'mask-stepper';
export const ASK_NICELY_ID = 'asking-nicely';
export const MASK_LOGITS_ID = 'mask-logits';

export const maskLogitsSchema = {
  preset: {
    kind: 'select',
    label: 'Tool-call schema',
    default: 'get-weather',
    options: SCHEMA_PRESETS.map((p) => ({ value: p.id, label: p.label })),
  },
  mode: {
    kind: 'select',
    label: 'Constrain',
    default: 'whole-reply',
    options: [
      { value: 'whole-reply', label: 'the whole reply (JSON mode)' },
      { value: 'tool-span', label: 'only the tool call (structural tag)' },
    ],
    help: 'a structural tag leaves the prose free and hands the text to the grammar at the tool-call tag',
  },
  seed: { kind: 'seed', label: 'Seed of the illustrative logits', default: 1 },
} satisfies ParamSchema;

export const maskStepperSchema = {
  preset: {
    kind: 'select',
    label: 'Tool-call schema',
    default: 'get-weather',
    options: [
      ...SCHEMA_PRESETS.map((p) => ({ value: p.id, label: p.label })),
      { value: 'custom', label: 'Your own (edit below)' },
    ],
  },
} satisfies ParamSchema;

export const askNicelySchema = {
  eps: {
    kind: 'number',
    label: 'Per-token slip probability ε',
    default: 0.001,
    ...controlRange(ASK_NICELY_LIMITS.eps, { min: 0.00001, max: 0.05 }),
    scale: 'log',
    format: (v) => formatPercent(v, 2),
    help: 'chance that one sampled token breaks the format although the prompt asked for JSON',
  },
  tokens: {
    kind: 'number',
    label: 'Tokens per tool call N',
    default: 120,
    ...controlRange(ASK_NICELY_LIMITS.tokens, { min: 5, max: 2000 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
  },
  calls: {
    kind: 'number',
    label: 'Tool calls per session M',
    default: 200,
    ...controlRange(ASK_NICELY_LIMITS.calls, { min: 1, max: 2000 }),
    integer: true,
    scale: 'log',
    unit: 'calls',
  },
  seed: { kind: 'seed', label: 'Seed', default: 7 },
} satisfies ParamSchema;

/** What the mask-over-logits widget asks the worker (grammarMaskLogits). */
export function maskLogitsArgs(v: ParamValues<typeof maskLogitsSchema>) {
  return { preset: v.preset, mode: v.mode as ConstrainMode, seed: v.seed };
}

/** What "asking nicely" asks the worker (grammarAskNicely). */
export function askNicelyArgs(v: ParamValues<typeof askNicelySchema>) {
  return { eps: v.eps, tokens: v.tokens, calls: v.calls, seed: v.seed };
}
