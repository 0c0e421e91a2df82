/** Shared by the lesson "Try this" tests: the state an item describes, and that it only sets what its controls offer. */
import { expect } from 'vitest';
import { coerceValue, defaultValues, type ParamSchema, type ParamValues } from '../src/state/paramSchema';
import type { TryItem } from '../src/widgets/kit/stage';

/** The schema's defaults with the item's settings over them, as "Show me" and the tour apply them (reset, then set). */
export function valuesOf<S extends ParamSchema>(schema: S, item?: TryItem): ParamValues<S> {
  return { ...defaultValues(schema), ...(item?.set ?? {}) } as ParamValues<S>;
}

/**
 * Every setting names a parameter of the schema and is a value its control offers: the schema's own coercion keeps
 * it as it is (in range, on its step, an option, a boolean).
 */
export function expectValidSets(items: readonly TryItem[], schema: ParamSchema) {
  for (const item of items)
    for (const [k, value] of Object.entries(item.set ?? {})) {
      const spec = schema[k];
      expect(spec, k).toBeDefined();
      expect(coerceValue(spec, value), k).toEqual({ value, valid: true });
    }
}
