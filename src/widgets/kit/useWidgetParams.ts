/** A widget's parameters: one store per widget instance, created from its schema and mirrored to the URL. */
import { useState } from 'react';
import { useStore } from 'zustand';
import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { browserUrl, createWidgetParamsStore, type WidgetParamsState } from '../../state/widgetParams';
import type { StoreApi } from 'zustand/vanilla';
import { useStageParams } from './stage';

export interface WidgetParams<S extends ParamSchema> {
  values: ParamValues<S>;
  corrected: string[];
  set: WidgetParamsState<S>['set'];
  reset(): void;
  store: StoreApi<WidgetParamsState<S>>;
  schema: S;
}

export function useWidgetParams<S extends ParamSchema>(widgetId: string, schema: S): WidgetParams<S> {
  const [store] = useState(() =>
    createWidgetParamsStore(widgetId, schema, typeof window === 'undefined' ? undefined : browserUrl),
  );
  useStageParams(widgetId, schema, store);
  const values = useStore(store, (s) => s.values);
  const corrected = useStore(store, (s) => s.corrected);
  const { set, reset } = store.getState();
  return { values, corrected, set, reset, store, schema };
}
