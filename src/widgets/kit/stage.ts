/**
 * The lesson's stage: what presentation mode and guided tours can reach on a page, registered by the parts
 * themselves (never found by CSS selector). Widgets register their frame as a screen and their parameter store
 * under their id; lesson headings register as screens. The app provides the stage (app/presentation); without
 * one, registering does nothing.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
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

/** An animated widget's clock, as a tour drives it. */
export interface StageTransport {
  seek(t: number): void;
  play(): void;
  pause(): void;
}

/** One "Try this" item of a widget: what to do (the caption) and the state it describes. */
export interface TryItem {
  text: ReactNode;
  set?: Record<string, string | number | boolean>;
  time?: number;
  play?: boolean;
  highlight?: string;
}

export interface Stage {
  addTryThis(widgetId: string, items: readonly TryItem[]): () => void;
  addScreen(screen: StageScreen): () => void;
  addParams(params: StageParams): () => void;
  addTransport(widgetId: string, transport: StageTransport): () => void;
}

export interface StageRegistry extends Stage {
  screens(): StageScreen[];
  params(id: string): StageParams | undefined;
  transport(widgetId: string): StageTransport | undefined;
  tryThis(widgetId: string): readonly TryItem[] | undefined;
  /** Called when screens or parameter stores come or go. */
  subscribe(listener: () => void): () => void;
}

export function createStageRegistry(): StageRegistry {
  const screens = new Set<StageScreen>();
  const params = new Map<string, StageParams>();
  const transports = new Map<string, StageTransport>();
  const tries = new Map<string, readonly TryItem[]>();
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
    addTransport(widgetId, t) {
      transports.set(widgetId, t);
      return () => {
        if (transports.get(widgetId) === t) transports.delete(widgetId);
      };
    },
    addTryThis(widgetId, items) {
      tries.set(widgetId, items);
      changed();
      return () => {
        if (tries.get(widgetId) === items) tries.delete(widgetId);
        changed();
      };
    },
    params: (id) => params.get(id),
    tryThis: (id) => tries.get(id),
    transport: (id) => transports.get(id),
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

/** The id of the widget whose frame encloses a component (WidgetFrame provides it). */
export const WidgetIdContext = createContext<string | null>(null);

/** Registers the enclosing widget's transport (the latest one rendered) while it is mounted. */
export function useStageTransport(transport: StageTransport): void {
  const stage = useContext(StageContext);
  const widgetId = useContext(WidgetIdContext);
  const latest = useRef(transport);
  useEffect(() => {
    latest.current = transport;
  });
  useEffect(() => {
    if (!stage || !widgetId) return;
    return stage.addTransport(widgetId, {
      seek: (t) => latest.current.seek(t),
      play: () => latest.current.play(),
      pause: () => latest.current.pause(),
    });
  }, [stage, widgetId]);
}

/**
 * A read-out or mark inside a widget, by the stable id it publishes (`data-readout` or `data-mark`): tours name
 * what to highlight by these ids. The lookup is scoped to the widget's own frame.
 */
export function findMark(widget: HTMLElement, id: string): HTMLElement | null {
  for (const el of widget.querySelectorAll<HTMLElement>('[data-readout], [data-mark]'))
    if (el.dataset.readout === id || el.dataset.mark === id) return el;
  return null;
}
