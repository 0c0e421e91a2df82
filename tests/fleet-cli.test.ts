/** `sim run`: metrics JSON on stdout, frames as JSONL, clear errors (exit 2, no stack trace). */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSim } from './cli-process';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'fleet-cli-'));
/** A scenario with no trace path (so a copy of it runs from any folder). */
const SMALL = join(ROOT, 'scenarios/pause/hold.json');

const sim = (...args: string[]) => runSim('run', ...args);

describe('sim run', () => {
  it('prints the metrics of a scenario, writes frames and per-request rows', () => {
    const frames = join(tmp, 'frames.jsonl');
    const csv = join(tmp, 'requests.csv');
    const r = sim(
      'scenarios/trace-native-sessions.json',
      '--frames',
      frames,
      '--frame-interval',
      '1',
      '--requests',
      csv,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m.scenario).toBe('trace-native-sessions');
    expect(m.requests.created).toBe(9);
    expect(m.requests.finished).toBe(9);
    const lines = readFileSync(frames, 'utf8').trim().split('\n');
    expect(lines.length).toBe(m.frames.count);
    const f = JSON.parse(lines[1]);
    expect(f.t).toBe(1);
    expect(f.replicas.count).toBe(2);
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    expect(rows.length).toBe(10);
    expect(rows[0].split(',')).toContain('ttft');
  });

  it('a seed replays byte-identically; --seed changes the run', () => {
    const a = sim('scenarios/chat-vs-agent-1-replica.json');
    const b = sim('scenarios/chat-vs-agent-1-replica.json');
    const c = sim('scenarios/chat-vs-agent-1-replica.json', '--seed', '2');
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(c.stdout).not.toBe(a.stdout);
  });

  it('lists every problem of an invalid scenario by path, exit 2, no stack trace', () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        seed: 1,
        durationS: 0,
        model: 'llama-3.1-8b',
        hardware: { accelerator: 'tpu' },
        replicas: 1,
        router: { kind: 'round-robin' },
        workload: { arrival: { kind: 'poisson', sessionsPerS: 1 }, sessions: 1, classes: [] },
      }),
    );
    const r = sim(bad);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/durationS: must be > 0/);
    expect(r.stderr).toMatch(/hardware\.accelerator: unknown accelerator "tpu"/);
    expect(r.stderr).toMatch(/workload\.classes: must be a non-empty array/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('says what is wrong with a missing file or broken JSON', () => {
    const r = sim(join(tmp, 'nope.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file/);
    const broken = join(tmp, 'broken.json');
    writeFileSync(broken, '{"seed": 1,');
    const b = sim(broken);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/is not valid JSON/);
  });

  it('reads a scenario saved with a byte-order mark, as the browser does', () => {
    const withBom = join(tmp, 'bom.json');
    writeFileSync(withBom, '\ufeff' + readFileSync(SMALL, 'utf8'));
    const r = sim(withBom);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).requests.finished).toBeGreaterThan(0);
  });

  it('refuses an unwritable --frames path before running, with a message and exit 2', () => {
    const r = sim(SMALL, '--frames', join(tmp, 'no-such-folder', 'frames.jsonl'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/cannot write the frames file: no such file or folder/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
