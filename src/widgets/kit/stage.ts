/**
 * The lesson's stage: what presentation mode and guided tours can reach on a page, registered by the parts
 * themselves (never found by CSS selector). Widgets register their frame as a screen and their parameter store
 * under their id; lesson headings register as screens. The app provides the stage (app/presentation); without
 * one, registering does nothing.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
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

export interface StageRegistry extends Stage {
  screens(): StageScreen[];
  params(id: string): StageParams | undefined;
  /** Called when screens or parameter stores come or go. */
  subscribe(listener: () => void): () => void;
}

export function createStageRegistry(): StageRegistry {
  const screens = new Set<StageScreen>();
  const params = new Map<string, StageParams>();
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  return {
    addScreen(s) {
      screens.add(s);
      changed();
      return () => {
        screens.delete(s);
        changed();
      };
    },
    addParams(p) {
      params.set(p.id, p);
      changed();
      return () => {
        if (params.get(p.id) === p) params.delete(p.id);
        changed();
      };
    },
    screens() {
      // Page order, whatever order the parts mounted in.
      return [...screens].sort((a, b) =>
        a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
      );
    },
    params: (id) => params.get(id),
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

export const StageContext = createContext<StageRegistry | null>(null);

/** A callback ref that registers the element as a presentation screen while it is mounted. */
export function useStageScreen(
  kind: ScreenKind,
  id: string,
  label: string,
): (el: HTMLElement | null) => void {
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

/** The parameter store a widget registered under `id`, once it has (undefined without a stage). */
export function useStageParamsOf(id: string): StageParams | undefined {
  const stage = useContext(StageContext);
  const [p, setP] = useState<StageParams | undefined>(() => stage?.params(id));
  useEffect(() => {
    if (!stage) return;
    const read = () => setP(stage.params(id));
    read();
    return stage.subscribe(read);
  }, [stage, id]);
  return p;
}
