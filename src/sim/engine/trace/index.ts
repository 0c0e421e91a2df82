/**
 * Trace readers (Mooncake JSONL and the native `sal-trace` format, see docs/traces.md) and statistics.
 * Readers take a string or an iterable of lines, so the browser worker can pass a File's text; malformed
 * lines are reported with their line number and either skipped (`onError: 'skip'`) or thrown as a
 * TraceError (`'stop'`, the default).
 */
export * from './errors';
export * from './lines';
export * from './mooncake';
export * from './native';
export * from './table';
export * from './stats';
