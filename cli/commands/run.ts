/**
 * `sim run <scenario.json> [--frames out.jsonl] [--frame-interval S] [--seed N] [--requests out.csv] [--series]`:
 * simulate an agent-serving fleet (docs/scenarios.md) and print its metrics as JSON. Frames, if asked for, are
 * written as JSON Lines with backpressure (the simulation waits while the file catches up); `--requests` writes
 * one CSV row per request; `--series` adds the KV-occupancy time series to the JSON.
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { checkKnownFlags, numberFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import { frameToJson, type FleetFrame } from '../../src/sim/engine/fleet/frames';
import { runScenario } from '../../src/sim/engine/fleet/run';
import {
  ScenarioError,
  validateScenario,
  type Scenario,
  type ValidationError,
} from '../../src/sim/engine/fleet/scenario';
import { SEED_LIMIT } from '../../src/sim/engine/rng';
import { TraceError } from '../../src/sim/engine/trace';
import { TraceLoadError } from '../../src/sim/engine/fleet/trace';
import { flagNames, type Command, type FlagHelp } from './index';
import { closeQuietly, openForWriting, readTextFile } from '../files';

/** Frames one run may write (durationS / interval, before any drain): 200 by default. */
const MAX_FRAMES = 100_000;

const FLAGS: readonly FlagHelp[] = [
  {
    name: 'frames',
    value: 'FILE',
    meaning: 'write animation frames there as JSON Lines, one frame per line',
  },
  {
    name: 'frame-interval',
    value: 'S',
    default: 'output.frameIntervalS, else durationS / 200',
    meaning: `seconds of simulated time between frames, at least durationS / ${MAX_FRAMES.toLocaleString('en-US')} (needs --frames)`,
  },
  {
    name: 'seed',
    value: 'N',
    default: "the scenario's seed",
    meaning: `overrides the seed, a whole number from ${SEED_LIMIT.min} to ${SEED_LIMIT.max}`,
  },
  {
    name: 'requests',
    value: 'FILE',
    meaning: 'write one CSV row per request there (docs/scenarios.md, Per request)',
  },
  { name: 'series', meaning: 'add the KV-occupancy time series to the JSON' },
];

function invalidScenario(file: string, errors: readonly ValidationError[]): string {
  return `invalid scenario "${file}":\n${errors.map((e) => `  ${e.path || '(root)'}: ${e.message}`).join('\n')}`;
}

/** Reads and validates a scenario file; a trace `path` is read into `text` (relative to the scenario's folder). */
export function loadScenarioFile(file: string): Scenario {
  const text = readTextFile(file, 'the scenario file');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`"${file}" is not valid JSON: ${(e as Error).message}`);
  }
  const errors = validateScenario(json);
  if (errors.length) throw new UsageError(invalidScenario(file, errors));
  const sc = json as Scenario;
  if (
    sc.workload.kind === 'trace' &&
    sc.workload.path &&
    sc.workload.text === undefined &&
    !sc.workload.records
  ) {
    const p = resolve(dirname(file), sc.workload.path);
    sc.workload = { ...sc.workload, text: readTextFile(p, 'the trace file') };
  }
  return sc;
}

export const runCommand: Command = {
  name: 'run',
  usage:
    'run <scenario.json> [--frames out.jsonl] [--frame-interval S] [--seed N] [--requests out.csv] [--series]',
  summary:
    'simulate an agent-serving fleet (replicas, router, KV tiers, agent workload) and print its metrics',
  flags: FLAGS,
  async run(args: ParsedArgs) {
    checkKnownFlags(args, flagNames(FLAGS));
    const requestsFile = stringFlag(args, 'requests');
    const series = args.flags.get('series');
    if (series !== undefined && series !== true) throw new UsageError('--series takes no value');
    if (args.positionals.length !== 1)
      throw new UsageError(
        args.positionals.length
          ? `one scenario file, got ${args.positionals.length}`
          : 'the scenario file is required',
      );
    const file = args.positionals[0];
    const sc = loadScenarioFile(file);
    const seed = numberFlag(args, 'seed', SEED_LIMIT);
    if (seed !== undefined) sc.seed = seed;
    const framesFile = stringFlag(args, 'frames');
    const interval = numberFlag(args, 'frame-interval');
    if (interval !== undefined && !framesFile) throw new UsageError('--frame-interval needs --frames');
    // 0 is the scenario's "no frames": with --frames it would write an empty file without a word.
    if (interval !== undefined && !(interval > 0))
      throw new UsageError(`--frame-interval must be more than 0 seconds, got ${interval}`);
    let onFrame: ((f: FleetFrame) => Promise<void>) | undefined;
    let out: ReturnType<typeof createWriteStream> | undefined;
    let frames = 0;
    if (framesFile) {
      const every = interval ?? sc.output?.frameIntervalS ?? Math.max(sc.durationS / 200, 0.001);
      // A frame holds every KV page of the fleet: a mistyped interval (1e-7) filled 16 GB of disk in minutes.
      const framesInDuration = sc.durationS / every;
      if (framesInDuration > MAX_FRAMES)
        throw new UsageError(
          `${interval !== undefined ? '--frame-interval' : 'output.frameIntervalS'} ${every} s gives ${Math.round(framesInDuration).toLocaleString('en-US')} frames over ` +
            `durationS ${sc.durationS} s; at most ${MAX_FRAMES.toLocaleString('en-US')}: use an interval of at least ${sc.durationS / MAX_FRAMES} s`,
        );
      sc.output = { ...sc.output, frameIntervalS: every };
      // Opened before the run: an unwritable path is a message now, not an exit after the simulation.
      const fd = openForWriting(framesFile, 'the frames file');
      out = createWriteStream('', { fd });
      const stream = out;
      let failure: Error | null = null;
      stream.on('error', (e) => {
        failure = e;
        closeQuietly(fd);
      });
      onFrame = (f) =>
        new Promise<void>((res, rej) => {
          const fail = (e: Error) => rej(new UsageError(`cannot write "${framesFile}": ${e.message}`));
          if (failure) return fail(failure);
          frames++;
          if (stream.write(JSON.stringify(frameToJson(f)) + '\n')) res();
          else {
            // Either the file catches up or writing fails: never wait for a drain that will not come.
            const onDrain = () => {
              stream.off('error', onError);
              res();
            };
            const onError = (e: Error) => {
              stream.off('drain', onDrain);
              fail(e);
            };
            stream.once('drain', onDrain);
            stream.once('error', onError);
          }
        });
    } else if (sc.output?.frameIntervalS) sc.output = { ...sc.output, frameIntervalS: 0 };
    // Opened before the run too: a bad --requests path used to fail only once the simulation was done.
    const requestsFd =
      requestsFile !== undefined ? openForWriting(requestsFile, 'the requests file') : undefined;
    try {
      const r = await runScenario(sc, {
        onFrame,
        includeSeries: series === true,
        includeRequests: requestsFile !== undefined,
      });
      if (out) await new Promise<void>((res) => out!.end(res));
      const result: Record<string, unknown> = { ...r.metrics };
      if (framesFile) result.frames = { file: framesFile, count: frames };
      if (r.series) result.series = r.series;
      if (requestsFile && r.requests) {
        const { columns, data } = r.requests;
        const n = data[columns[0]].length;
        const lines = [['id', ...columns].join(',')];
        for (let i = 0; i < n; i++)
          lines.push(
            [i, ...columns.map((k) => (Number.isNaN(data[k][i]) ? '' : String(data[k][i])))].join(','),
          );
        try {
          writeFileSync(requestsFd!, lines.join('\n') + '\n');
        } catch (e) {
          throw new UsageError(`cannot write "${requestsFile}": ${(e as Error).message}`);
        }
        result.requestsFile = { file: requestsFile, rows: n };
      }
      if (requestsFd !== undefined) closeQuietly(requestsFd);
      return result;
    } catch (e) {
      out?.destroy();
      if (requestsFd !== undefined) closeQuietly(requestsFd);
      // Found while resolving (no room for the KV cache, FP8 on a part without it): said as validation says it.
      if (e instanceof ScenarioError) throw new UsageError(invalidScenario(file, e.errors));
      if (e instanceof TraceError || e instanceof TraceLoadError) throw new UsageError(e.message);
      throw e;
    }
  },
};
