/** A widget's parameters: one store per widget instance, created from its schema and mirrored to the URL. */
import { useDeferredValue, useState } from 'react';
import { useStore } from 'zustand';
import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { browserUrl, createWidgetParamsStore, type WidgetParamsState } from '../../state/widgetParams';
import type { StoreApi } from 'zustand/vanilla';
import { useStageParams } from './stage';

export interface WidgetParams<S extends ParamSchema> {
  /**
   * The values the widget computes and draws from. With `{ deferred: true }` they are React's useDeferredValue
   * of the store's, so a dragged control re-renders the widget's picture in an interruptible background render
   * rather than one long task per input event (the controls follow the store at once: ParamControls). Only for
   * widgets that never compare their values with state they set in the same event (a render-phase adjustment
   * would see the old values).
   */
  values: ParamValues<S>;
  corrected: string[];
  set: WidgetParamsState<S>['set'];
  reset(): void;
  store: StoreApi<WidgetParamsState<S>>;
  schema: S;
}

export function useWidgetParams<S extends ParamSchema>(
  widgetId: string,
  schema: S,
  options: { deferred?: boolean } = {},
): WidgetParams<S> {
  const [store] = useState(() =>
    createWidgetParamsStore(widgetId, schema, typeof window === 'undefined' ? undefined : browserUrl),
  );
  useStageParams(widgetId, schema, store);
  const current = useStore(store, (s) => s.values);
  const deferred = useDeferredValue(current);
  const values = options.deferred ? deferred : current;
  const corrected = useStore(store, (s) => s.corrected);
  const { set, reset } = store.getState();
  return { values, corrected, set, reset, store, schema };
}
