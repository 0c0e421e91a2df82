/**
 * The frame every widget lives in: title, controls, figure, read-outs, caption, and the toolbar (reset,
 * copy link, export, fullscreen).
 *
 * Contract for browser tests (ours and outside checkers), kept stable: the root carries
 * data-widget="<id>" and data-state="loading" | "ready" | "error"; "ready" is set only once the first
 * computed result has been drawn; and data-drawn="<n>", which grows by one each time the picture shows a newly
 * computed result for the widget's current settings (see `drawn` below), so a benchmark can time a control's
 * effect without guessing from DOM mutations.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import type { SimStatus } from './useSimulation';
import { download, standaloneSvg, svgToPngBlob, toCsv, type ExportData } from './exporting';
import { ErrorBoundary } from './ErrorBoundary';
import { useStageParamsOf, useStageScreen, WidgetIdContext } from './stage';
import { SharePanel } from './SharePanel';
import { FigureText } from './SeparatedFigures';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { useWindowSize } from './charts/useWindowSize';
import { ChartZoomContext, projectedZoom, useChartZoom } from './charts/zoom';
import type { CannotRun } from '../../sim/engine/cannotRun';
import { CannotRunPicture, ReadoutsBlank, useReadoutsBlank } from './CannotRun';
import { browserUrl } from '../../state/widgetParams';
import type { JobProgress } from '../../worker/progress';
import { JobProgressLine } from './JobProgress';

export interface WidgetFrameProps {
  id: string;
  title: string;
  status: SimStatus;
  error?: string | null;
  onRetry?: () => void;
  /** Parameters whose URL values were corrected on load: shown as a notice. */
  corrected?: string[];
  onReset?: () => void;
  controls?: ReactNode;
  /** The key figures, each with its formula where one applies. */
  readouts?: ReactNode;
  caption?: ReactNode;
  tryThis?: ReactNode;
  /** Transport bar for animated widgets. */
  transport?: ReactNode;
  onKeyDown?: (e: KeyboardEvent) => void;
  exportData?: () => ExportData;
  /** True while a newer request runs and the figure still shows the older result. */
  stale?: boolean;
  /**
   * The core's answer that these settings cannot run: drawn in place of the picture (with its fixes as buttons that
   * set the widget's parameters), the read-outs show "—", the controls stay live.
   */
  cannotRun?: CannotRun | null;
  /** Which parameter each field a fix sets is, where the names differ (e.g. { modelId: 'model' }). */
  fixFields?: Record<string, string>;
  /**
   * What the picture shows, for `data-drawn`: a new value each time a newly computed result for the current
   * settings is drawn (a progressive widget passes one per streamed part), null while it shows none. Without
   * it, data-drawn counts the renders in which the widget is ready and not stale after it was loading or stale.
   * Either way a change of settings while ready and not stale counts (a control that only changes the view).
   */
  drawn?: string | number | null;
  /**
   * A long job's progress (useProgressSimulation, or streamProgress for a sweep; null when nothing runs): a line
   * with a bar above the picture, which stays as it was (dimmed) until the new one is ready; `onCancel` adds Cancel
   * to the line (useCancelToShown).
   */
  progress?: JobProgress | null;
  onCancel?: (() => void) | null;
  children: ReactNode;
}

/** Stands in for a widget's parameter store before it registers (or without a stage): no link flags. */
const NO_FLAGS = createStore<{ unknownFlags: string[] }>()(() => ({ unknownFlags: [] }));

export function WidgetFrame(props: WidgetFrameProps) {
  const {
    id,
    title,
    status,
    error,
    onRetry,
    corrected,
    onReset,
    controls,
    readouts,
    caption,
    tryThis,
    transport,
    onKeyDown,
    exportData,
    stale,
    cannotRun,
    fixFields,
    drawn,
    progress,
    onCancel,
    children,
  } = props;
  const rootRef = useRef<HTMLElement | null>(null);
  const screenRef = useStageScreen('widget', id, title);
  const zoom = useChartZoom();
  const windowSize = useWindowSize();
  const setRoot = useCallback(
    (el: HTMLElement | null) => {
      rootRef.current = el;
      screenRef(el);
    },
    [screenRef],
  );
  const figureRef = useRef<HTMLDivElement>(null);
  const [message, setMessage] = useState('');
  const [menuOpen, setMenuOpen] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [formulasShown, setFormulasShown] = useState(false);
  const stageParams = useStageParamsOf(id);
  const unknownFlags = useStore(stageParams?.store ?? NO_FLAGS, (s) => s.unknownFlags);
  const settings = useStore(stageParams?.store ?? NO_FLAGS, (s) => ('values' in s ? s.values : null));
  useDrawnCounter(rootRef, status === 'ready' && !stale, settings, drawn);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === rootRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => setMessage(''), 2500);
    return () => clearTimeout(t);
  }, [message]);

  const figureSvg = () => figureRef.current?.querySelector('svg') ?? null;

  const copyText = async (text: string, done: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setMessage(done);
    } catch {
      window.prompt('Copy this:', text);
    }
  };
  const copyLink = () =>
    copyText(
      // The query as it will be (a dragged control's URL write is coalesced: widgetParams.ts).
      `${window.location.origin}${window.location.pathname}${browserUrl.read()}#${id}`,
      'Link copied',
    );

  const exportAs = async (kind: 'svg' | 'png' | 'csv' | 'json') => {
    setMenuOpen(false);
    try {
      if (kind === 'svg' || kind === 'png') {
        const svg = figureSvg();
        if (!svg) throw new Error('this widget has no figure to export');
        const text = standaloneSvg(svg);
        if (kind === 'svg') download(`${id}.svg`, new Blob([text], { type: 'image/svg+xml' }));
        else {
          const { width, height } = svg.getBoundingClientRect();
          download(`${id}.png`, await svgToPngBlob(text, width, height));
        }
      } else {
        if (!exportData) throw new Error('this widget has no data to export');
        const data = exportData();
        if (kind === 'csv') download(`${id}.csv`, new Blob([toCsv(data.rows)], { type: 'text/csv' }));
        else
          download(
            `${id}.json`,
            new Blob([JSON.stringify(data.json, null, 2)], { type: 'application/json' }),
          );
      }
      setMessage(`Exported ${kind.toUpperCase()}`);
    } catch (e) {
      setMessage(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const toggleFullscreen = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await rootRef.current?.requestFullscreen();
    } catch {
      setMessage('Fullscreen is not available here');
    }
  };

  return (
    <WidgetIdContext.Provider value={id}>
      <section
        ref={setRoot}
        id={id}
        className={`widget${fullscreen ? ' widget-fullscreen' : ''}`}
        data-widget={id}
        data-state={status}
        data-outcome={cannotRun && status === 'ready' ? 'cannot-run' : undefined}
        aria-labelledby={`${id}-title`}
        aria-busy={status === 'loading' || stale ? true : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="widget-header">
          <h3 id={`${id}-title`} className="widget-title">
            {title}
          </h3>
          <div className="widget-toolbar" role="toolbar" aria-label={`${title} tools`}>
            {onReset ? (
              <button type="button" onClick={onReset} title="Reset to defaults">
                Reset
              </button>
            ) : null}
            <button type="button" onClick={copyLink} title="Copy a link to this widget with its settings">
              Copy link
            </button>
            <button
              type="button"
              aria-expanded={shareOpen}
              onClick={() => setShareOpen((o) => !o)}
              title="A link or embed code for this widget, optionally hiding or locking controls"
            >
              Share…
            </button>
            <div className="menu">
              <button
                type="button"
                aria-haspopup="true"
                aria-expanded={menuOpen}
                onClick={() => setMenuOpen((o) => !o)}
              >
                Export
              </button>
              {menuOpen ? (
                <div className="menu-items" role="menu">
                  {(['svg', 'png', 'csv', 'json'] as const).map((k) => (
                    <button key={k} type="button" role="menuitem" onClick={() => exportAs(k)}>
                      {k === 'svg' || k === 'png'
                        ? `Figure (${k.toUpperCase()})`
                        : `Data (${k.toUpperCase()})`}
                    </button>
                  ))}
                </div>
              ) : null}
            </div>
            <button type="button" onClick={toggleFullscreen} aria-pressed={fullscreen} title="Fullscreen">
              {fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
            </button>
          </div>
        </header>
        {shareOpen ? <SharePanel id={id} title={title} params={stageParams} onCopy={copyText} /> : null}
        {unknownFlags.length > 0 ? (
          <p className="widget-notice" role="status">
            The link names controls this widget does not have ({unknownFlags.join(', ')}); they are ignored.
          </p>
        ) : null}
        {corrected && corrected.length > 0 ? (
          <p className="widget-notice" role="status">
            The link set {corrected.join(', ')} outside the allowed range; the nearest allowed value is used.
          </p>
        ) : null}
        <div className="widget-body">
          {controls ? (
            <form
              className="widget-controls"
              aria-label={`${title} controls`}
              onSubmit={(e) => e.preventDefault()}
            >
              {controls}
            </form>
          ) : null}
          <div className="widget-main">
            {/* Key read-outs above the picture, so both are on one screen; their formulas behind a toggle. */}
            {readouts && status === 'ready' ? (
              <div className="widget-readouts-row">
                <div className="widget-readouts" data-formulas={formulasShown ? 'shown' : 'hidden'}>
                  <ReadoutsBlank.Provider value={!!cannotRun}>{readouts}</ReadoutsBlank.Provider>
                </div>
                <button
                  type="button"
                  className="link-button widget-formulas-toggle"
                  aria-pressed={formulasShown}
                  onClick={() => setFormulasShown((v) => !v)}
                >
                  {formulasShown ? 'Hide the formulas' : 'Show the formulas'}
                </button>
              </div>
            ) : null}
            {progress ? <JobProgressLine progress={progress} onCancel={onCancel ?? undefined} /> : null}
            <div ref={figureRef} className={`widget-figure${stale ? ' is-stale' : ''}`}>
              {status === 'error' ? (
                <div className="widget-error" role="alert">
                  <p>
                    <strong>This widget could not compute its result.</strong> {error}
                  </p>
                  {onRetry ? (
                    <button type="button" onClick={onRetry}>
                      Retry
                    </button>
                  ) : null}
                </div>
              ) : null}
              {status === 'loading' ? <div className="widget-loading">Computing…</div> : null}
              {status === 'ready' && cannotRun ? (
                <CannotRunPicture
                  outcome={cannotRun}
                  target={
                    stageParams
                      ? { schema: stageParams.schema, store: stageParams.store, fields: fixFields }
                      : undefined
                  }
                />
              ) : null}
              {status !== 'loading' && !(status === 'ready' && cannotRun) ? (
                <ErrorBoundary what="this widget's picture">
                  {/* Fullscreen enlarges the charts' text and marks as presentation mode does, for the screen's size. */}
                  <ChartZoomContext.Provider
                    value={
                      fullscreen ? Math.max(zoom, projectedZoom(windowSize.width, windowSize.height)) : zoom
                    }
                  >
                    {children}
                  </ChartZoomContext.Provider>
                </ErrorBoundary>
              ) : null}
            </div>
            {cannotRun ? null : transport}
          </div>
        </div>
        {/* The caption describes the picture; a setting that cannot run has none. */}
        {caption && !cannotRun ? <p className="widget-caption">{caption}</p> : null}
        {tryThis ? (
          <aside className="widget-try" aria-label="Try this">
            <h4>Try this</h4>
            {tryThis}
          </aside>
        ) : null}
        <p className="widget-status" role="status" aria-live="polite">
          {message}
        </p>
      </section>
    </WidgetIdContext.Provider>
  );
}

/**
 * Keeps the root's data-drawn counter (written to the DOM directly, so counting never re-renders). Runs after
 * every commit; bumps when the committed picture is a new drawing (see WidgetFrameProps.drawn).
 */
function useDrawnCounter(
  rootRef: RefObject<HTMLElement | null>,
  current: boolean,
  settings: unknown,
  drawn: string | number | null | undefined,
) {
  const seen = useRef<{ n: number; drawn: unknown; current: boolean; settings: unknown }>({
    n: 0,
    drawn: null,
    current: false,
    settings,
  });
  useLayoutEffect(() => {
    const s = seen.current;
    // A control that only changes the view redraws the current result at once: that is a new drawing too.
    const bump =
      (drawn !== undefined ? drawn !== null && drawn !== s.drawn : current && !s.current) ||
      (current && s.current && settings !== s.settings);
    s.drawn = drawn ?? null;
    s.current = current;
    s.settings = settings;
    if (bump) {
      s.n++;
      rootRef.current?.setAttribute('data-drawn', String(s.n));
    }
  });
}

/** One labelled figure in a widget's read-out row, with the formula that produced it. */
export function Readout({
  label,
  value,
  formula,
  emphasis,
}: {
  label: string;
  value: ReactNode;
  formula?: ReactNode;
  emphasis?: boolean;
}) {
  // A setting that cannot run has no figures: "—", never the numbers of an older setting.
  const blank = useReadoutsBlank();
  return (
    <div className={`readout${emphasis ? ' readout-key' : ''}`}>
      <div className="readout-label">{label}</div>
      <div className="readout-value">
        {blank ? '—' : typeof value === 'string' ? <FigureText text={value} /> : value}
      </div>
      {formula && !blank ? <div className="readout-formula">{formula}</div> : null}
    </div>
  );
}
