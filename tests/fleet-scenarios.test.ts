/** The example scenarios in scenarios/: all valid, and each family shows what it is there to show. */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenarioSync, type FleetMetrics } from '../src/sim/engine/fleet/run';
import { validateScenario, type Scenario } from '../src/sim/engine/fleet/scenario';

const DIR = resolve(__dirname, '../scenarios');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.json') ? [join(dir, e.name)] : [],
  );
}

function load(rel: string): Scenario {
  const file = join(DIR, rel);
  const sc = JSON.parse(readFileSync(file, 'utf8')) as Scenario;
  if (sc.workload.kind === 'trace' && sc.workload.path)
    sc.workload = { ...sc.workload, text: readFileSync(resolve(dirname(file), sc.workload.path), 'utf8') };
  return sc;
}

const run = (rel: string): FleetMetrics => runScenarioSync(load(rel), { includeSeries: false }).metrics;

describe('example scenarios', () => {
  const all = files(DIR);
  it('there are examples of each kind the issue asks for', () => {
    const names = all.map((f) => f.slice(DIR.length + 1));
    expect(names).toContain('chat-vs-agent-1-replica.json');
    for (const r of [
      'round-robin',
      'random',
      'least-outstanding',
      'power-of-two',
      'session-affinity',
      'cache-aware',
    ])
      expect(names).toContain(`routers/8x-${r}.json`);
    for (const p of ['lru', 'hold', 'write-through', 'offload-dram', 'evict', 'ttl-5s-offload'])
      expect(names).toContain(`pause/${p}.json`);
    expect(names).toContain('prefill/100k-no-chunking.json');
  });

  for (const f of all) {
    it(`${f.slice(DIR.length + 1)} is valid`, () => {
      const sc = JSON.parse(readFileSync(f, 'utf8'));
      expect(validateScenario(sc)).toEqual([]);
      expect(typeof sc.description).toBe('string');
      if (sc.workload.kind === 'trace' && sc.workload.path)
        expect(existsSync(resolve(dirname(f), sc.workload.path))).toBe(true);
    });
  }

  it('chunked prefill keeps decodes flowing past a 100k-token prompt', () => {
    const none = run('prefill/100k-no-chunking.json');
    const small = run('prefill/100k-chunk-512.json');
    expect(none.requests.interTokenGap.max).toBeGreaterThan(5);
    expect(small.requests.interTokenGap.max).toBeLessThan(0.5);
    const chat = (m: FleetMetrics) => m.sessions.perClass.find((c) => c.name === 'chat')!;
    expect(chat(small).ttft.p90).toBeLessThan(chat(none).ttft.p90 / 10);
  });

  it('evicting through tool pauses recomputes far more than keeping or offloading', () => {
    const evict = run('pause/evict.json');
    const lru = run('pause/lru.json');
    const hold = run('pause/hold.json');
    const off = run('pause/offload-dram.json');
    expect(evict.tokens.prefilled).toBeGreaterThan(3 * lru.tokens.prefilled);
    expect(evict.requests.ttft.p50).toBeGreaterThan(10 * lru.requests.ttft.p50);
    expect(hold.replicas[0].heldBlocks.mean).toBeGreaterThan(0);
    expect(lru.replicas[0].heldBlocks.mean).toBe(0);
    expect(off.bytesMoved['dram→hbm'].up).toBeGreaterThan(lru.bytesMoved['dram→hbm'].up);
  });
});
