/** Errors of the trace readers: every one names the 1-based line it comes from. */

/** What to do with a malformed line: `skip` it (collect the error and go on) or `stop` (throw a TraceError). */
export type OnError = 'skip' | 'stop';

export interface TraceIssue {
  line: number;
  message: string;
}

export class TraceError extends Error {
  readonly line: number;
  readonly reason: string;
  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.name = 'TraceError';
    this.line = line;
    this.reason = reason;
  }
}

export interface ReadOptions {
  onError?: OnError;
  /** How many errors to keep in detail (all are counted). Default 100. */
  maxErrors?: number;
}

/** Collects errors in skip mode, throws in stop mode. */
export class ErrorSink {
  readonly issues: TraceIssue[] = [];
  count = 0;
  private readonly mode: OnError;
  private readonly max: number;
  constructor(opts: ReadOptions = {}) {
    this.mode = opts.onError ?? 'stop';
    this.max = opts.maxErrors ?? 100;
  }
  report(line: number, reason: string): void {
    if (this.mode === 'stop') throw new TraceError(line, reason);
    this.count++;
    if (this.issues.length < this.max) this.issues.push({ line, message: reason });
  }
}

/** A reason a field is wrong; thrown inside a record parser and turned into a TraceError with the line. */
export class FieldError extends Error {}

export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 40 ? s.slice(0, 37) + '...' : s;
}
