/**
 * docs/scenarios.md's table of example results is what `npm run sim -- run <file>` prints now: each row is
 * recomputed from a run of its scenario, loaded as the command line loads it, and formatted as the table
 * formats it. (Twelve rows had gone stale, and with them the prose that reads them.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../cli/commands/run';
import { runScenarioSync, type FleetMetrics } from '../src/sim/engine/fleet/run';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(join(root, 'docs/scenarios.md'), 'utf8');

/** The table's rows: scenario file (under scenarios/) → its cells after the name. */
function tableRows(): [string, string[]][] {
  const section = doc.slice(doc.indexOf('## Example scenarios and what they show'));
  return [...section.matchAll(/^\| `([^`]+\.json)` +\|(.*)\|$/gm)].map((m) => [
    m[1],
    m[2].split('|').map((c) => c.trim()),
  ]);
}

/** The columns as the table's header names them, from a run's metrics. */
function row(m: FleetMetrics): string[] {
  const t = m.requests.ttft;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const movedUpGB = sum(Object.values(m.bytesMoved).map((b) => b.up)) / 1e9;
  return [
    String(m.requests.finished),
    `${t.p50.toFixed(3)} / ${t.p90.toFixed(3)} / ${t.p99.toFixed(2)}`,
    (m.requests.tpot.p90 * 1000).toFixed(1),
    m.requests.interTokenGap.max.toFixed(2),
    `${(m.tokens.reuseRatio * 100).toFixed(1)}%`,
    (m.tokens.prefilled / 1e6).toFixed(2),
    movedUpGB.toFixed(0),
    sum(m.replicas.map((r) => r.heldBlocks.mean)).toFixed(0),
    (sum(m.replicas.map((r) => r.utilisation)) / m.replicas.length).toFixed(2),
    m.fleet.outputTokensPerS.toFixed(0),
    `${(m.fleet.goodput.share * 100).toFixed(0)}%`,
  ];
}

describe('docs/scenarios.md example results', () => {
  const rows = tableRows();

  it('lists the examples', () => {
    expect(rows.length).toBeGreaterThanOrEqual(23);
  });

  it.each(rows)('%s', (file, cells) => {
    const sc = loadScenarioFile(join(root, 'scenarios', file));
    expect(row(runScenarioSync(sc, { includeSeries: false }).metrics)).toEqual(cells);
  });
});
