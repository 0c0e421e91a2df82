/** Largest trace the browser reads: its text is held in the worker's memory while it is parsed. */
export const MAX_TRACE_BYTES = 200 * 1024 * 1024;
