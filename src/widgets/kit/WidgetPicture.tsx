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
  const zoom = useChartZoom();
  const windowSize = useWindowSize();
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
      {status !== 'loading' && !(status === 'ready' && cannotRun) ? (
        <ErrorBoundary what="this widget's picture">
          {/* Fullscreen enlarges the charts' text and marks as presentation mode does, for the screen's size. */}
          <ChartZoomContext.Provider
            value={
              fullscreen ? Math.max(zoom, projectedChartZoom(windowSize.width, windowSize.height)) : zoom
            }
          >
            {children}
          </ChartZoomContext.Provider>
        </ErrorBoundary>
      ) : null}
    </>
  );
}
