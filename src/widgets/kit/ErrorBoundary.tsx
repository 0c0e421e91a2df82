/**
 * Catches a render error below it and shows what happened in the reader's words, with a way out, instead of
 * an empty page. A lesson chunk that no longer exists (the site was redeployed while the page was open) is
 * told apart from a bug: the way out is a reload, which fetches the new version.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Messages browsers give when a lazily imported chunk cannot be fetched (Chromium, Firefox, Safari; Vite). */
const STALE_CHUNK =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading chunk [\w-]+ failed/i;

export function isStaleChunkError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return STALE_CHUNK.test(message);
}

interface Props {
  /** What failed, for the message: "this lesson", "this widget". */
  what: string;
  children: ReactNode;
  /** Changing it clears a caught error (e.g. the lesson's slug). */
  resetKey?: unknown;
}

interface State {
  error: unknown;
  resetKey: unknown;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    // Kept in the console for whoever debugs it; the reader gets the message below.
    console.warn(`[error boundary: ${this.props.what}]`, error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const stale = isStaleChunkError(error);
    return (
      <div className="error-boundary" role="alert" data-error-boundary={stale ? 'stale-chunk' : 'error'}>
        {stale ? (
          <p>
            <strong>The lab was updated since this page was opened.</strong> Reload to get the new version;
            your progress is kept.
          </p>
        ) : (
          <p>
            <strong>Something went wrong in {this.props.what}.</strong>{' '}
            {error instanceof Error ? error.message : String(error)}
          </p>
        )}
        <div className="error-boundary-actions">
          <button type="button" onClick={() => window.location.reload()}>
            Reload the page
          </button>
          {stale ? null : (
            <button type="button" onClick={() => this.setState({ error: null })}>
              Try again
            </button>
          )}
        </div>
      </div>
    );
  }
}
