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
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { SimStatus } from './useSimulation';
import type { ExportData } from './exporting';
import { exportWidget } from './exportWidget';
import { useStageParamsOf, useStageScreen, WidgetIdContext } from './stage';
import { SharePanel } from './SharePanel';
import { FigureText } from './SeparatedFigures';
import type { CannotRun } from '../../sim/engine/cannotRun';
import { ReadoutsBlank, useReadoutsBlank } from './CannotRun';
import { browserUrl } from '../../state/widgetParams';
import type { JobProgress } from '../../worker/progress';
import { JobProgressLine } from './JobProgress';
import { useDrawnCounter } from './useDrawnCounter';
import { useFullscreen } from './useFullscreen';
import { WidgetHeader } from './WidgetHeader';
import { PictureContent, picturePainted, WidgetPicture } from './WidgetPicture';

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
  /** The picture: the widget's chart, or the first of its charts when it draws several (see `more`). */
  children: ReactNode;
  /**
   * The rest of the charts of a widget that draws several: under the first (`children`) beside the controls when
   * reading; after the controls on a phone, where the picture comes first (app.css), so a student reads the first
   * chart, moves a control right under it, and finds the other charts below, instead of scrolling past every chart
   * to reach the controls. Drawn while the picture is.
   */
  more?: ReactNode;
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
    more,
  } = props;
  const rootRef = useRef<HTMLElement | null>(null);
  const screenRef = useStageScreen('widget', id, title);
  const setRoot = useCallback(
    (el: HTMLElement | null) => {
      rootRef.current = el;
      screenRef(el);
    },
    [screenRef],
  );
  const figureRef = useRef<HTMLDivElement>(null);
  const [message, setMessage] = useState('');
  const [shareOpen, setShareOpen] = useState(false);
  const [formulasShown, setFormulasShown] = useState(false);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(rootRef, () =>
    setMessage('Fullscreen is not available here'),
  );
  const stageParams = useStageParamsOf(id);
  const unknownFlags = useStore(stageParams?.store ?? NO_FLAGS, (s) => s.unknownFlags);
  const settings = useStore(stageParams?.store ?? NO_FLAGS, (s) => ('values' in s ? s.values : null));
  useDrawnCounter(rootRef, status === 'ready' && !stale, settings, drawn);

  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => setMessage(''), 2500);
    return () => clearTimeout(t);
  }, [message]);

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
        <WidgetHeader
          id={id}
          title={title}
          onReset={onReset}
          onCopyLink={copyLink}
          shareOpen={shareOpen}
          onToggleShare={() => setShareOpen((o) => !o)}
          onExport={async (kind) =>
            setMessage(
              await exportWidget(kind, id, figureRef.current?.querySelector('svg') ?? null, exportData),
            )
          }
          fullscreen={fullscreen}
          onToggleFullscreen={toggleFullscreen}
        />
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
              <WidgetPicture
                status={status}
                error={error}
                onRetry={onRetry}
                cannotRun={cannotRun}
                fixTarget={
                  stageParams
                    ? { schema: stageParams.schema, store: stageParams.store, fields: fixFields }
                    : undefined
                }
                fullscreen={fullscreen}
              >
                {children}
              </WidgetPicture>
            </div>
            {cannotRun ? null : transport}
          </div>
          {more && picturePainted(status, cannotRun) ? (
            <div className={`widget-figure widget-more${stale ? ' is-stale' : ''}`}>
              <PictureContent fullscreen={fullscreen}>{more}</PictureContent>
            </div>
          ) : null}
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
