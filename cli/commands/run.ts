/**
 * `sim run <scenario.json> [--frames out.jsonl] [--frame-interval S] [--seed N] [--requests out.csv] [--series]`:
 * simulate an agent-serving fleet (docs/scenarios.md) and print its metrics as JSON. Frames, if asked for, are
 * written as JSON Lines with backpressure (the simulation waits while the file catches up); `--requests` writes
 * one CSV row per request; `--series` adds the KV-occupancy time series to the JSON.
 */
import { createWriteStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { checkKnownFlags, numberFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import { frameToJson, type FleetFrame } from '../../src/sim/engine/fleet/frames';
import { runScenario } from '../../src/sim/engine/fleet/run';
import { ScenarioError, validateScenario, type Scenario } from '../../src/sim/engine/fleet/scenario';
import { TraceError } from '../../src/sim/engine/trace';
import { TraceLoadError } from '../../src/sim/engine/fleet/trace';
import type { Command } from './index';

function readText(file: string, what: string): string {
  try {
    if (statSync(file).isDirectory()) throw new UsageError(`"${file}" is a directory, not ${what}`);
    return readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `no such file: "${file}"` : `cannot read "${file}": ${(e as Error).message}`,
    );
  }
}

/** Reads and validates a scenario file; a trace `path` is read into `text` (relative to the scenario's folder). */
export function loadScenarioFile(file: string): Scenario {
  const text = readText(file, 'a scenario file');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`"${file}" is not valid JSON: ${(e as Error).message}`);
  }
  const errors = validateScenario(json);
  if (errors.length)
    throw new UsageError(
      `invalid scenario "${file}":\n${errors.map((e) => `  ${e.path || '(root)'}: ${e.message}`).join('\n')}`,
    );
  const sc = json as Scenario;
  if (
    sc.workload.kind === 'trace' &&
    sc.workload.path &&
    sc.workload.text === undefined &&
    !sc.workload.records
  ) {
    const p = resolve(dirname(file), sc.workload.path);
    sc.workload = { ...sc.workload, text: readText(p, 'a trace file') };
  }
  return sc;
}

export const runCommand: Command = {
  name: 'run',
  usage:
    'run <scenario.json> [--frames out.jsonl] [--frame-interval S] [--seed N] [--requests out.csv] [--series]',
  summary:
    'simulate an agent-serving fleet (replicas, router, KV tiers, agent workload) and print its metrics',
  async run(args: ParsedArgs) {
    checkKnownFlags(args, ['frames', 'frame-interval', 'seed', 'requests', 'series']);
    const requestsFile = stringFlag(args, 'requests');
    const series = args.flags.get('series');
    if (series !== undefined && series !== true) throw new UsageError('--series takes no value');
    if (args.positionals.length !== 1)
      throw new UsageError(
        args.positionals.length
          ? `one scenario file, got ${args.positionals.length}`
          : 'the scenario file is required',
      );
    const sc = loadScenarioFile(args.positionals[0]);
    const seed = numberFlag(args, 'seed', { integer: true });
    if (seed !== undefined) sc.seed = seed;
    const framesFile = stringFlag(args, 'frames');
    const interval = numberFlag(args, 'frame-interval', { min: 0 });
    if (interval !== undefined && !framesFile) throw new UsageError('--frame-interval needs --frames');
    let onFrame: ((f: FleetFrame) => Promise<void>) | undefined;
    let out: ReturnType<typeof createWriteStream> | undefined;
    let frames = 0;
    if (framesFile) {
      const every = interval ?? sc.output?.frameIntervalS ?? Math.max(sc.durationS / 200, 0.001);
      sc.output = { ...sc.output, frameIntervalS: every };
      out = createWriteStream(framesFile);
      const stream = out;
      let failure: Error | null = null;
      stream.on('error', (e) => (failure = e));
      onFrame = (f) =>
        new Promise<void>((res, rej) => {
          if (failure)
            return rej(new UsageError(`cannot write "${framesFile}": ${(failure as Error).message}`));
          frames++;
          if (stream.write(JSON.stringify(frameToJson(f)) + '\n')) res();
          else stream.once('drain', () => res());
        });
    } else if (sc.output?.frameIntervalS) sc.output = { ...sc.output, frameIntervalS: 0 };
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
          writeFileSync(requestsFile, lines.join('\n') + '\n');
        } catch (e) {
          throw new UsageError(`cannot write "${requestsFile}": ${(e as Error).message}`);
        }
        result.requestsFile = { file: requestsFile, rows: n };
      }
      return result;
    } catch (e) {
      out?.destroy();
      if (e instanceof ScenarioError) throw new UsageError(e.message);
      if (e instanceof TraceError || e instanceof TraceLoadError) throw new UsageError(e.message);
      throw e;
    }
  },
};
