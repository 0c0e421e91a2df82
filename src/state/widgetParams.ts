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

/** How long a burst of changes (a drag) must rest before its last state is written to the URL (ms). */
const URL_QUIET_MS = 200;
let pendingSearch: string | null = null;
let urlTimer: ReturnType<typeof setTimeout> | null = null;

/** Write a pending URL change now (before anything else replaces the query, or the page goes away). */
export function flushUrlWrites(): void {
  const search = pendingSearch;
  pendingSearch = null;
  if (search === null || search === window.location.search) return;
  const { pathname, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`);
}

/** The end of a burst: write what is pending, or, when nothing came since, end the burst. */
function quietEnded(): void {
  urlTimer = null;
  if (pendingSearch === null) return;
  flushUrlWrites();
  urlTimer = setTimeout(quietEnded, URL_QUIET_MS);
}

// A change still waiting when the tab is hidden or closed is written then (a reload or a copied URL keeps it).
if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  window.addEventListener('pagehide', flushUrlWrites);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushUrlWrites();
  });
}

/**
 * The browser's URL, updated in place without a navigation or a history entry. A single change (a click, a key)
 * is written at once; the changes that follow within URL_QUIET_MS of each other (a dragged slider) are written
 * once, when they stop: `history.replaceState` costs a synchronous trip to the browser process, and writing it
 * on every input event (and later every 150 ms) put that trip inside a drag's main-thread tasks at 4× CPU
 * throttling (npm run bench -- browser). Reads see the pending value, so widgets compose their changes and
 * "Copy link" copies the settings on screen.
 */
export const browserUrl: UrlAccess = {
  read: () => pendingSearch ?? window.location.search,
  write(search) {
    pendingSearch = search;
    if (urlTimer === null) flushUrlWrites();
    else clearTimeout(urlTimer);
    urlTimer = setTimeout(quietEnded, URL_QUIET_MS);
  },
};
