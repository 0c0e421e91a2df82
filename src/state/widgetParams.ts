/**
 * One Zustand store per widget instance (created by the widget, never a module-level singleton), mirrored
 * into the URL query with history.replaceState.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  coerceValue,
  defaultValues,
  HIDE_FLAG,
  LOCK_FLAG,
  parseLinkFlags,
  parseParamsFromQuery,
  writeParamsToQuery,
  type ParamSchema,
  type ParamValues,
} from './paramSchema';

export interface WidgetParamsState<S extends ParamSchema> {
  values: ParamValues<S>;
  /** Keys whose URL values were out of range or malformed and were corrected on load. */
  corrected: string[];
  /** Controls an instructor link hides, and parameters it locks at the link's values (paramSchema.ts). */
  hidden: string[];
  locked: string[];
  /** Control names the link gave that this widget does not have. */
  unknownFlags: string[];
  /** Ignored for a locked parameter. */
  set<K extends keyof S & string>(key: K, value: unknown): void;
  /** Back to the defaults, except locked parameters, which keep the link's values. */
  reset(): void;
}

export interface UrlAccess {
  read(): string;
  write(search: string): void;
}

export function createWidgetParamsStore<S extends ParamSchema>(
  widgetId: string,
  schema: S,
  url?: UrlAccess,
): StoreApi<WidgetParamsState<S>> {
  const initial = url
    ? parseParamsFromQuery(schema, widgetId, url.read())
    : { values: defaultValues(schema), corrected: [] };
  for (const reserved of [HIDE_FLAG, LOCK_FLAG])
    if (Object.hasOwn(schema, reserved))
      throw new Error(`${widgetId}: '${reserved}' names an instructor-link flag and cannot be a parameter`);
  const flags = url ? parseLinkFlags(schema, widgetId, url.read()) : { hidden: [], locked: [], unknown: [] };
  const store = createStore<WidgetParamsState<S>>()((set, get) => ({
    values: initial.values,
    corrected: initial.corrected,
    hidden: flags.hidden,
    locked: flags.locked,
    unknownFlags: flags.unknown,
    set(key, value) {
      if (get().locked.includes(key)) return;
      const { value: v } = coerceValue(schema[key], value);
      set({ values: { ...get().values, [key]: v } });
    },
    reset() {
      const values = defaultValues(schema) as Record<string, unknown>;
      const current = get().values as Record<string, unknown>;
      for (const key of get().locked) values[key] = current[key];
      set({ values: values as ParamValues<S>, corrected: [] });
    },
  }));
  if (url) {
    store.subscribe((state) => url.write(writeParamsToQuery(schema, widgetId, state.values, url.read())));
  }
  return store;
}

/** The browser's URL, updated in place without a navigation or a history entry. */
export const browserUrl: UrlAccess = {
  read: () => window.location.search,
  write(search) {
    const { pathname, hash } = window.location;
    if (search === window.location.search) return;
    window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`);
  },
};
