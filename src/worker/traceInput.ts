/**
 * Reading a trace the learner gave (a File from the picker, or text): the size limit, the progress phases and the
 * messages, shared by every worker method that takes a trace (07.01's statistics, 07.02's session list).
 */
import { TraceError } from '../sim/engine/trace/errors';
import type { JobContext } from './job';
import type { JobProgress } from './progress';
import { MAX_TRACE_BYTES } from './traceLimits';

export class TraceRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceRejected';
  }
}

export interface TraceRequest {
  /** The trace's text (tests, the exercise), or the File itself (read here, off the main thread). */
  text?: string;
  blob?: Blob;
  name: string;
}

export interface TraceProgress {
  phase: 'reading' | 'parsing' | 'statistics';
  bytes: number;
  /** How far the statistics are (progress.ts), once they report it. */
  progress?: JobProgress;
}

/** The trace's text, read in the worker; emits the reading and parsing phases. */
export async function readTraceText(
  req: TraceRequest,
  ctx: JobContext<TraceProgress>,
): Promise<{ text: string; size: number }> {
  const size = req.blob ? req.blob.size : (req.text?.length ?? 0);
  if (size > MAX_TRACE_BYTES)
    throw new TraceRejected(
      `${req.name} is ${Math.round(size / 2 ** 20)} MiB; the browser reads traces of up to ${MAX_TRACE_BYTES / 2 ** 20} MiB. Use \`npm run sim -- trace-stats\` for larger ones.`,
    );
  let text = req.text;
  if (text === undefined) {
    if (!req.blob) throw new TraceRejected('no trace given');
    await ctx.emit({ phase: 'reading', bytes: size });
    text = await req.blob.text();
  }
  await ctx.checkpoint();
  await ctx.emit({ phase: 'parsing', bytes: size });
  return { text, size };
}

/** A reader's TraceError as a message naming the file and the line. */
export function rejectedTrace(name: string, e: TraceError): TraceRejected {
  return new TraceRejected(e.line > 0 ? `${name}, line ${e.line}: ${e.reason}` : `${name}: ${e.reason}`);
}
