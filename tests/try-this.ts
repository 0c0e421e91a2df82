/** Shared by the lesson "Try this" tests: the state an item describes, and that it only sets what its controls offer. */
import { expect } from 'vitest';
import { coerceValue, defaultValues, type ParamSchema, type ParamValues } from '../src/state/paramSchema';
import type { TryItem } from '../src/widgets/kit/stage';
import { replicaCannotRun } from '../src/sim/engine/fleet/replicaFit';
import { createElement } from 'react';
import { formatNumber } from '../src/lib/format';
import { renderedText } from './lessonText';
import { ServicesProvider, type Services } from '../src/app/services';

/** The schema's defaults with the item's settings over them, as "Show me" and the tour apply them (reset, then set). */
export function valuesOf<S extends ParamSchema>(schema: S, item?: TryItem): ParamValues<S> {
  return { ...defaultValues(schema), ...(item?.set ?? {}) } as ParamValues<S>;
}

/**
 * Every setting names a parameter of the schema and is a value its control offers: the schema's own coercion keeps
 * it as it is (in range, on its step, an option, a boolean).
 */
export function expectValidSets(
  items: readonly TryItem[],
  schema: ParamSchema,
  unnamed: readonly string[] = [],
) {
  for (const item of items)
    for (const [k, value] of Object.entries(item.set ?? {})) {
      const spec = schema[k];
      expect(spec, k).toBeDefined();
      expect(coerceValue(spec, value), k).toEqual({ value, valid: true });
    }
  expectSetsNamed(items, schema, unnamed);
}

/**
 * Every number an item sets is named in its text as its control shows it (the control's format) or as a plain
 * number, so the text and the setting cannot drift apart; a setting the item before made alike is named there. `unnamed`
 * lists the settings, as "item index:parameter", that the text names in other words ("its highest", "double"), each
 * asserted on its own where it is listed.
 */
export function expectSetsNamed(
  items: readonly TryItem[],
  schema: ParamSchema,
  unnamed: readonly string[] = [],
) {
  for (const [i, item] of items.entries()) {
    // A live figure in the text renders its placeholder: effects do not run in a static render, so no simulation is asked.
    const el = createElement(ServicesProvider, {
      services: { sim: {} } as unknown as Services,
      children: item.text,
    });
    const text = renderedText(el);
    for (const [k, value] of Object.entries(item.set ?? {})) {
      const spec = schema[k];
      if (typeof value !== 'number' || unnamed.includes(`${i}:${k}`) || spec?.kind !== 'number') continue;
      // Carried from the item before ("Then…"), which names it (or carries it in turn).
      if (i > 0 && items[i - 1].set?.[k] === value) continue;
      const forms = [spec.format?.(value), formatNumber(value), formatNumber(value, 6), String(value)].filter(
        (f): f is string => !!f,
      );
      expect(
        forms.some((f) => text.includes(f)),
        `${k} = ${value} (${forms.join(' | ')}) in: ${text}`,
      ).toBe(true);
    }
  }
}

/**
 * No item leads its widget to a replica that cannot run (src/worker/fitted.ts: the weights and the engine's reserve
 * leave no room for KV): the widget would draw "cannot run" where the item promises a result.
 */
export function expectEveryItemFits(
  items: readonly TryItem[],
  request: (item?: TryItem) => { modelId: string; acceleratorId: string; gpus?: number; tp?: number },
) {
  for (const item of [undefined, ...items]) {
    const r = request(item);
    const why = replicaCannotRun(r.modelId, r.acceleratorId, (r.gpus ?? r.tp)!);
    expect(why?.reason ?? null, JSON.stringify(item?.set ?? {})).toBeNull();
  }
}
