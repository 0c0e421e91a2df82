/**
 * A replica whose GPUs each keep a copy of the same KV (more GPUs than KV heads; an MLA latent under tensor
 * parallelism) holds, stores and reloads every copy: vLLM's offload connector runs one transfer worker per GPU,
 * each moving its own blocks. So a page's bytes, in HBM, in a lower tier and on a link, count the copies.
 */
import { describe, expect, it } from 'vitest';
import { resolveScenario } from '../src/sim/engine/fleet/scenario';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import { kvBytesPerToken, findModel } from '../src/sim/engine/catalog/models';
import { kvReplication } from '../src/sim/engine/flopsAndBytes';
import { agentClass, c, scenario } from './fleet-helpers';

const withDram = (model: string, tp: number) =>
  scenario({
    model,
    hardware: { accelerator: 'h100-sxm', tp },
    kv: { blockSize: 16, dram: { capacityGB: 64 } },
    policies: { toolPause: { kind: 'offload', tier: 'dram' } },
    workload: {
      arrival: { kind: 'poisson', sessionsPerS: 1 },
      sessions: 2,
      classes: [agentClass({ turns: c(3), toolLatency: c(5) })],
    },
  });

describe('KV copies across a replica’s GPUs', () => {
  it('a page counts every copy: Qwen3 235B-A22B’s 4 KV heads on 8 GPUs are stored twice, Llama 3.1 70B’s 8 once', () => {
    const qwen = resolveScenario(withDram('qwen3-235b-a22b', 8));
    const llama = resolveScenario(withDram('llama-3.1-70b', 8));
    expect(kvReplication(findModel('qwen3-235b-a22b')!, 8)).toBe(2);
    expect(qwen.bytesPerBlock).toBe(
      2 * kvBytesPerToken(findModel('qwen3-235b-a22b')!, 'bf16') * qwen.blockSize,
    );
    expect(llama.bytesPerBlock).toBe(kvBytesPerToken(findModel('llama-3.1-70b')!, 'bf16') * llama.blockSize);
    // HBM's pages are what its KV budget holds at that size.
    expect(qwen.hbmBlocks).toBe(Math.floor(qwen.hbm.kvBytes / qwen.bytesPerBlock));
  });

  it('a reload moves every copy: 4 KV heads stored twice move what 8 heads stored once do, byte for byte', () => {
    const twice = runScenarioSync(withDram('qwen3-235b-a22b', 8)).metrics;
    const wide = { base: 'qwen3-235b-a22b', kvHeads: 8 };
    expect(kvReplication({ ...findModel('qwen3-235b-a22b')!, kvHeads: 8 }, 8)).toBe(1);
    const once = runScenarioSync({ ...withDram('qwen3-235b-a22b', 8), model: wide }).metrics;
    expect(twice.tokens.reused.dram).toBeGreaterThan(0);
    expect(twice.bytesMoved).toEqual(once.bytesMoved);
    expect(twice.requests.ttft).toEqual(once.requests.ttft);
  });

  it('a disaggregated prefill ships every copy: 4 heads stored twice send what 8 heads once do', () => {
    const disagg = (model: string | { base: string; kvHeads: number }) => ({
      ...withDram('qwen3-235b-a22b', 8),
      model,
      replicas: 2,
      disaggregation: {
        prefillReplicas: 1,
        decodeReplicas: 1,
        transfer: 'rdma-400g-cx7',
        mode: 'after-prefill',
      },
    });
    const twice = runScenarioSync(disagg('qwen3-235b-a22b')).metrics.disaggregation!;
    const once = runScenarioSync(disagg({ base: 'qwen3-235b-a22b', kvHeads: 8 })).metrics.disaggregation!;
    expect(twice.transfer.bytes).toBeGreaterThan(0);
    expect(twice.transfer.bytes).toBe(once.transfer.bytes);
  });
});
