/**
 * What a widget's figure area holds for its status: the error with Retry, "Computing…" before the first result,
 * the core's answer that the settings cannot run (with its fixes as buttons), or the picture itself.
 */
import type { ReactNode } from 'react';
import type { CannotRun } from '../../sim/engine/cannotRun';
import { CannotRunPicture, type FixTarget } from './CannotRun';
import { ErrorBoundary } from './ErrorBoundary';
import { useWindowSize } from './charts/useWindowSize';
import { ChartZoomContext, projectedChartZoom, useChartZoom } from './charts/zoom';
import type { SimStatus } from './useSimulation';

export function WidgetPicture({
  status,
  error,
  onRetry,
  cannotRun,
  fixTarget,
  fullscreen,
  children,
}: {
  status: SimStatus;
  error?: string | null;
  onRetry?: () => void;
  cannotRun?: CannotRun | null;
  /** Where the cannot-run picture's fixes land; without one (no stage) it offers none. */
  fixTarget?: FixTarget;
  fullscreen: boolean;
  children: ReactNode;
}) {
  return (
    <>
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
      {status === 'ready' && cannotRun ? <CannotRunPicture outcome={cannotRun} target={fixTarget} /> : null}
      {picturePainted(status, cannotRun) ? (
        <PictureContent fullscreen={fullscreen}>{children}</PictureContent>
      ) : null}
    </>
  );
}

/** Whether the widget's picture is drawn: not while its first result computes, nor for settings that cannot run. */
export function picturePainted(status: SimStatus, cannotRun?: CannotRun | null): boolean {
  return status !== 'loading' && !(status === 'ready' && cannotRun);
}

/** A picture's charts, inside an error boundary, at the zoom of presentation mode or fullscreen. */
export function PictureContent({ fullscreen, children }: { fullscreen: boolean; children: ReactNode }) {
  const zoom = useChartZoom();
  const windowSize = useWindowSize();
  return (
    <ErrorBoundary what="this widget's picture">
      {/* Fullscreen enlarges the charts' text and marks as presentation mode does, for the screen's size. */}
      <ChartZoomContext.Provider
        value={fullscreen ? Math.max(zoom, projectedChartZoom(windowSize.width, windowSize.height)) : zoom}
      >
        {children}
      </ChartZoomContext.Provider>
    </ErrorBoundary>
  );
}
