/**
 * The lesson's stage: what presentation mode and guided tours can reach on a page, registered by the parts
 * themselves (never found by CSS selector). Widgets register their frame as a screen and their parameter store
 * under their id; lesson headings register as screens. The app provides the stage (app/presentation); without
 * one, registering does nothing.
 */
import { createContext, useCallback, useContext, useEffect, useRef } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { ParamSchema } from '../../state/paramSchema';
import type { WidgetParamsState } from '../../state/widgetParams';

export type ScreenKind = 'title' | 'section' | 'widget';

export interface StageScreen {
  kind: ScreenKind;
  id: string;
  label: string;
  element: HTMLElement;
}

/** A widget's parameters as a tour sets them. */
export interface StageParams {
  id: string;
  schema: ParamSchema;
  store: StoreApi<WidgetParamsState<ParamSchema>>;
}

export interface Stage {
  addScreen(screen: StageScreen): () => void;
  addParams(params: StageParams): () => void;
}

export const StageContext = createContext<Stage | null>(null);

/** A callback ref that registers the element as a presentation screen while it is mounted. */
export function useStageScreen(kind: ScreenKind, id: string, label: string): (el: HTMLElement | null) => void {
  const stage = useContext(StageContext);
  const undo = useRef<(() => void) | null>(null);
  useEffect(() => () => undo.current?.(), []);
  return useCallback(
    (el: HTMLElement | null) => {
      undo.current?.();
      undo.current = el && stage ? stage.addScreen({ kind, id, label, element: el }) : null;
    },
    [stage, kind, id, label],
  );
}

/** Registers a widget's parameter store under its id while the widget is mounted. */
export function useStageParams<S extends ParamSchema>(
  id: string,
  schema: S,
  store: StoreApi<WidgetParamsState<S>>,
): void {
  const stage = useContext(StageContext);
  useEffect(() => {
    if (!stage) return;
    return stage.addParams({
      id,
      schema,
      store: store as unknown as StoreApi<WidgetParamsState<ParamSchema>>,
    });
  }, [stage, id, schema, store]);
}
