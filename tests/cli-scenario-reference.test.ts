/* eslint-disable @typescript-eslint/no-explicit-any -- scenarios are edited as plain JSON */
/**
 * docs/scenarios.md documents every field the validator accepts, and states the ranges it enforces. The fields are
 * found by asking the validator itself (its "unknown field (known: …)" message at each level), so a field added
 * to the validator and not to the reference fails here. (`$schema` was accepted and undocumented; the ranges
 * below were enforced and undocumented.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../src/sim/engine/fleet/scenario';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(join(root, 'docs/scenarios.md'), 'utf8');
const base = JSON.parse(readFileSync(join(root, 'scenarios/chat-vs-agent-1-replica.json'), 'utf8'));

function errorsWith(change: (s: any) => void) {
  const s = structuredClone(base);
  change(s);
  return validateScenario(s);
}

/** Where to put an unknown field to learn the fields known there. */
const LEVELS: [string, (s: any) => void][] = [
  ['top level', (s) => (s.bogus = 1)],
  ['hardware', (s) => (s.hardware.bogus = 1)],
  ['scheduler', (s) => (s.scheduler = { bogus: 1 })],
  ['kv', (s) => (s.kv.bogus = 1)],
  ['kv.dram', (s) => (s.kv.dram.bogus = 1)],
  ['kv.pool', (s) => (s.kv.pool = { capacityGB: 1, bogus: 1 })],
  ['a link', (s) => (s.kv.dram.link = { bandwidthGBps: 1, bogus: 1 })],
  ['workload (sessions)', (s) => (s.workload.bogus = 1)],
  ['a chat class', (s) => (s.workload.classes[0].bogus = 1)],
  ['an agent class', (s) => (s.workload.classes[1].bogus = 1)],
  ['nonExtension', (s) => (s.workload.classes[1].nonExtension = { bogus: 1 })],
  ['workload (trace)', (s) => (s.workload = { kind: 'trace', format: 'native', text: '', bogus: 1 })],
  ['workload (shared-prefix)', (s) => (s.workload = { kind: 'shared-prefix', bogus: 1 })],
  ['policies', (s) => (s.policies = { bogus: 1 })],
  ['policies.structuredOutput', (s) => (s.policies = { structuredOutput: { bogus: 1 } })],
  ['slo', (s) => (s.slo.bogus = 1)],
  ['output', (s) => (s.output = { bogus: 1 })],
  ['disaggregation', (s) => (s.disaggregation = { bogus: 1 })],
  ['router (cache-aware)', (s) => (s.router = { kind: 'cache-aware', bogus: 1 })],
  ['router (llm-d)', (s) => (s.router = { kind: 'llm-d', bogus: 1 })],
  ['router (session-affinity)', (s) => (s.router = { kind: 'session-affinity', bogus: 1 })],
  ['clients', (s) => (s.clients = { bogus: 1 })],
];

describe('docs/scenarios.md, the scenario reference', () => {
  it.each(LEVELS)('names every field the validator accepts in %s', (_, change) => {
    const unknown = errorsWith(change).find((e) => e.message.startsWith('unknown field'));
    const known = /\(known: (.*)\)$/.exec(unknown!.message)![1].split(', ');
    // As a word of its own anywhere in the reference (in a table, a JSON example or the prose).
    const documented = (k: string) =>
      new RegExp(`(^|[^A-Za-z0-9])${k.replace('$', '\\$')}($|[^A-Za-z0-9])`, 'm').test(doc);
    expect(known.filter((k) => !documented(k))).toEqual([]);
  });

  it.each([
    ['seed', (s: any, v: number) => (s.seed = v), 2 ** 31 - 1, 2 ** 31, /integer 0–2,147,483,647, required/],
    [
      'hardware.iterationOverheadS',
      (s: any, v: number) => (s.hardware.iterationOverheadS = v),
      1,
      1.01,
      /launches\), 0–1 +\|/,
    ],
    [
      'hardware.gpusPerNode',
      (s: any, v: number) => (s.hardware.gpusPerNode = v),
      72,
      73,
      /GPUs per node, 1–72/,
    ],
    [
      'kv.blockSize',
      (s: any, v: number) => (s.kv.blockSize = v),
      65_536,
      65_537,
      /block size \(1–65,536 tokens\)/,
    ],
    [
      'an agent class apps',
      (s: any, v: number) => (s.workload.classes[1].apps = v),
      4095,
      4096,
      /apps \(1–4,095/,
    ],
    [
      'workload.sessions',
      (s: any, v: number) => (s.workload.sessions = v),
      1,
      16_000_001,
      /\(1–16,000,000\)/,
    ],
    [
      'llm-d metricsRefreshS',
      (s: any, v: number) => (s.router = { kind: 'llm-d', metricsRefreshS: v }),
      60,
      60.5,
      /`metricsRefreshS` \(0–60 s/,
    ],
    [
      'requestOverhead.fixedS',
      (s: any, v: number) => (s.requestOverhead = { fixedS: v }),
      60,
      61,
      /firstTokenS\? \}` \(each 0–60 s\)/,
    ],
  ])('%s: the range the validator enforces is the one documented', (_, set, ok, bad, documented) => {
    expect(errorsWith((s) => set(s, ok))).toEqual([]);
    expect(errorsWith((s) => set(s, bad)).length).toBeGreaterThan(0);
    expect(doc).toMatch(documented);
  });

  it('at most 15 classes, as documented', () => {
    const errors = errorsWith((s) => (s.workload.classes = Array(16).fill(s.workload.classes[0])));
    expect(errors.map((e) => e.message)).toContain('at most 15 classes');
    expect(doc).toMatch(/`classes` holds 1 to 15 classes/);
  });

  it('the invalid-scenario example is what `sim run` prints for such a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-scenario-reference-'));
    const s = JSON.parse(readFileSync(join(root, 'scenarios/pause/hold.json'), 'utf8'));
    s.durationS = 0;
    s.hardware.accelerator = 'tpu';
    s.workload.classes[0].toolLatency = 'teleport';
    s.policies.toolPause = { kind: 'offload', tier: 'remote' };
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(s));
    const r = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'cli/sim.ts'), 'run', 'bad.json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const shown = /\n```\n(sim run: invalid scenario "bad\.json":[\s\S]*?)```/.exec(doc)![1];
    expect(r.stderr).toBe(shown);
    expect(r.status).toBe(2);
  });
});
