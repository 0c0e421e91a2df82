/**
 * Lesson 07.12's third lever: disaggregated prefill on the lab's node (src/sim/engine/fleet/disagg.ts). The node's
 * four replicas of Qwen3-32B on 2 GPUs become one prefill replica and three decode replicas (1P3D), the KV moving
 * over the node's RDMA NICs with the simulator's defaults (fleet/disaggSpec.ts: one 400 Gb/s ConnectX-7 per GPU,
 * after the prefill as vLLM's NixlConnector does, a turn prefilled on its decode replica when fewer than 1,000 of
 * its tokens are uncached there, the default of Dynamo's first disaggregated router, disagg_router.rs; its current
 * router's experimental rule is under 2,048 uncached tokens and under 0.7 of the prompt). The agents, router,
 * idle-KV policy and SLOs are the lever grid's (economicsLab.ts); the concurrency searched is per decode replica, so
 * agents per node = that × 3.
 *
 * Within one node the KV would more likely cross NVLink; the NICs are the simulator's default link and the
 * transfers here are small next to the prefills (a turn ships only what its decode replica does not hold).
 */
import {
  econNode,
  econScenario,
  runEconPoint,
  searchCapacity,
  type CapacityResult,
  type EconRunArgs,
  type RunHooks,
} from './economicsLab';
import { ECON_PREFILL_REPLICAS, econReplicasPerNode } from './economicsLabSetup';

/** The lab's node scenario with its replicas split into a prefill and a decode pool. */
export function econDisaggScenario(a: EconRunArgs) {
  const s = econScenario({ ...a, scope: 'node' });
  const total = econReplicasPerNode(econNode(a.node));
  const decode = total - ECON_PREFILL_REPLICAS;
  if (decode < 1) throw new RangeError(`a node of ${total} replicas cannot spare ${ECON_PREFILL_REPLICAS} for prefill`);
  s.name = `07.12 ${a.node} ${a.router} ${a.policy} 1P${decode}D ×${a.concurrency}`;
  s.disaggregation = { prefillReplicas: ECON_PREFILL_REPLICAS, decodeReplicas: decode };
  if ('arrival' in s.workload && s.workload.arrival.kind === 'closed')
    s.workload.arrival = { ...s.workload.arrival, concurrency: a.concurrency * decode };
  return s;
}

export interface DisaggCapacity extends CapacityResult {
  /** Replicas that decode (agents per node = agentsPerReplica × this). */
  decodeReplicas: number;
  agentsPerNode: number;
}

/** The largest concurrency per decode replica at which the split node meets both SLOs. */
export async function searchDisaggCapacity(
  a: Omit<EconRunArgs, 'concurrency' | 'scope'>,
  hooks: RunHooks = {},
): Promise<DisaggCapacity> {
  const total = econReplicasPerNode(econNode(a.node));
  const decodeReplicas = total - ECON_PREFILL_REPLICAS;
  const cap = await searchCapacity(a, (c) =>
    runEconPoint({ ...a, concurrency: c, scope: 'node' }, hooks, econDisaggScenario),
  );
  return { ...cap, decodeReplicas, agentsPerNode: cap.agentsPerReplica * decodeReplicas };
}

/** The aggregated node's capacity for the same arguments, in agents per node. */
export async function searchAggregatedCapacity(
  a: Omit<EconRunArgs, 'concurrency' | 'scope'>,
  hooks: RunHooks = {},
): Promise<DisaggCapacity> {
  const decodeReplicas = econReplicasPerNode(econNode(a.node));
  const cap = await searchCapacity(a, (c) => runEconPoint({ ...a, concurrency: c, scope: 'node' }, hooks));
  return { ...cap, decodeReplicas, agentsPerNode: cap.agentsPerReplica * decodeReplicas };
}
