/**
 * One Zustand store per widget instance (created by the widget, never a module-level singleton), mirrored
 * into the URL query with history.replaceState.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  coerceValue,
  defaultValues,
  parseParamsFromQuery,
  writeParamsToQuery,
  type ParamSchema,
  type ParamValues,
} from './paramSchema';

export interface WidgetParamsState<S extends ParamSchema> {
  values: ParamValues<S>;
  /** Keys whose URL values were out of range or malformed and were corrected on load. */
  corrected: string[];
  set<K extends keyof S & string>(key: K, value: unknown): void;
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
  const store = createStore<WidgetParamsState<S>>()((set, get) => ({
    values: initial.values,
    corrected: initial.corrected,
    set(key, value) {
      const { value: v } = coerceValue(schema[key], value);
      set({ values: { ...get().values, [key]: v } });
    },
    reset() {
      set({ values: defaultValues(schema), corrected: [] });
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
