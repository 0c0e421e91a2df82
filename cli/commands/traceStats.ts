/**
 * `sim trace-stats <file> [--format auto|mooncake|native] [--block-size N] [--lru-blocks 1000,10000,...]
 * [--on-error skip|stop]`: statistics of a request trace (see docs/traces.md and docs/cli.md).
 */
import { readBytesFile } from '../files';
import { checkKnownFlags, numberFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import {
  readTraceTable,
  TraceError,
  traceStats,
  type OnError,
  type TraceFormat,
} from '../../src/sim/engine/trace';
import { flagNames, type Command, type FlagHelp } from './index';

const FORMATS = ['auto', 'mooncake', 'native'] as const;
const ON_ERROR: readonly OnError[] = ['skip', 'stop'];
const SHOWN_ERRORS = 5;

const FLAGS: readonly FlagHelp[] = [
  {
    name: 'format',
    value: '<f>',
    default: 'auto',
    meaning:
      'mooncake, native, or auto (from the first line: hash_ids → Mooncake; session or a format header → native)',
  },
  {
    name: 'block-size',
    value: 'N',
    default: "512 (native: the header's blockSize, else 512)",
    meaning:
      "tokens per block, a whole number ≥ 1: Mooncake, the block size of the trace's hash_ids; native, the size to cut segments into",
  },
  {
    name: 'lru-blocks',
    value: 'N,N,...',
    default: 'none',
    meaning: 'LRU cache capacities in blocks (whole numbers ≥ 0, comma-separated); one lru entry each',
  },
  {
    name: 'on-error',
    value: 'skip|stop',
    default: 'skip',
    meaning: `malformed lines: skip (count them, list the first ${SHOWN_ERRORS}) or stop at the first (exit 2)`,
  },
];

function parseCapacities(s: string | undefined): number[] {
  if (s === undefined) return [];
  const out: number[] = [];
  for (const part of s.split(',')) {
    const p = part.trim().replace(/_/g, '');
    const n = Number(p);
    if (p === '' || !Number.isSafeInteger(n) || n < 0)
      throw new UsageError(`--lru-blocks takes whole numbers of blocks separated by commas, got "${part}"`);
    out.push(n);
  }
  return out;
}

export const traceStatsCommand: Command = {
  name: 'trace-stats',
  usage:
    'trace-stats <file.jsonl> [--format auto|mooncake|native] [--block-size 512] [--lru-blocks 1000,10000,...] [--on-error skip|stop]',
  summary:
    'request count, arrival rate, length percentiles, ideal and LRU prefix-cache hit ratios of a Mooncake or native trace',
  flags: FLAGS,
  run(args: ParsedArgs) {
    checkKnownFlags(args, flagNames(FLAGS));
    if (args.positionals.length !== 1)
      throw new UsageError(
        args.positionals.length
          ? `one trace file, got ${args.positionals.length}`
          : 'the trace file is required',
      );
    const file = args.positionals[0];
    const format = (stringFlag(args, 'format') ?? 'auto') as (typeof FORMATS)[number];
    if (!FORMATS.includes(format))
      throw new UsageError(`unknown format "${format}" (one of: ${FORMATS.join(', ')})`);
    const blockSize = numberFlag(args, 'block-size', { integer: true, min: 1 });
    const onError = (stringFlag(args, 'on-error') ?? 'skip') as OnError;
    if (!ON_ERROR.includes(onError))
      throw new UsageError(`--on-error must be skip or stop, got "${onError}"`);
    const capacities = parseCapacities(stringFlag(args, 'lru-blocks'));

    // Bytes, not text: the reader scans the usual lines without decoding them (docs/performance.md).
    const bytes = readBytesFile(file, 'the trace file');
    let result;
    try {
      result = readTraceTable(bytes, {
        format: format as TraceFormat | 'auto',
        blockSize,
        onError,
        maxErrors: SHOWN_ERRORS,
      });
    } catch (e) {
      if (e instanceof TraceError) throw new UsageError(`${file}: ${e.line > 0 ? e.message : e.reason}`);
      throw e;
    }
    const { table, errors, errorCount } = result;
    if (table.count === 0) {
      const first = errors[0] ? `; first: line ${errors[0].line}: ${errors[0].message}` : '';
      throw new UsageError(
        `${file}: no valid requests (${errorCount} malformed line${errorCount === 1 ? '' : 's'}${first})`,
      );
    }
    const s = traceStats(table, { lruCapacities: capacities });
    return {
      file,
      format: s.format,
      blockSize: s.blocks.blockSize,
      requests: s.requests,
      sessions: s.sessions,
      durationS: s.durationS,
      arrivalRatePerS: s.arrivalRatePerS,
      inputTokens: s.inputTokens,
      outputTokens: s.outputTokens,
      blocks: { total: s.blocks.total, unique: s.blocks.unique, lengthMismatches: s.blocks.lengthMismatches },
      idealHitRatio: s.idealHitRatio,
      lru: s.lru,
      errors: { count: errorCount, first: errors },
    };
  },
};
