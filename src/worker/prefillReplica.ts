/**
 * The replica lesson 07.10's worker methods run on (a model, an accelerator, GPUs per replica), and the constants
 * its formulas show beside the figures.
 */
import { replicaHardware } from './replicaHardware';
import { prefillFormula, type PrefillFormula } from './prefillFormula';
import { weightBytes, type ModelSpec } from '../sim/engine/catalog/models';
import { kvBudget, VLLM_GPU_MEMORY_UTILIZATION } from '../sim/engine/hbm';
import { ringBusBandwidth } from '../sim/engine/tensorParallel';
import { effectiveMemBandwidth, passComm, type HardwareConfig } from '../sim/engine/cost';
import { replicaKvBytesPerToken, weightBytesTouched } from '../sim/engine/flopsAndBytes';

export interface ReplicaChoice {
  modelId: string;
  acceleratorId: string;
  /** GPUs per replica (tensor parallel). */
  gpus: number;
}

export function replica(req: ReplicaChoice): {
  model: ModelSpec;
  hw: HardwareConfig;
  name: string;
  acceleratorName: string;
} {
  const { model, accelerator, hw } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  return { model, hw, name: model.name, acceleratorName: accelerator.name };
}

/** The replica's constants, for the formulas shown beside the figures: its prefill's (prefillFormula.ts) and more. */
export interface ReplicaFormula extends PrefillFormula {
  iterationOverheadS: number;
  /** All-reduce per iteration: the fixed latency part, the link and its bus bandwidth. */
  allReduceFixedS: number;
  allReduceLink: string;
  allReduceBusBandwidth: number;
  /** G · BW · MBU, bytes/s. */
  effectiveBandwidth: number;
  bandwidthPerGpu: number;
  mbu: number;
  /** Weight bytes a pass streams (all but the input embedding). */
  weightBytesStreamed: number;
  weightBytesTotal: number;
  /** KV bytes per token across the replica (kvReplication included). */
  kvBytesPerToken: number;
  /** KV the replica can hold: 90% of HBM less vLLM's reserve and the weights (engine/hbm.ts), in tokens. */
  kvCapacityTokens: number;
}

export function formulaOf(model: ModelSpec, hw: HardwareConfig): ReplicaFormula {
  const comm = passComm(model, hw, 1);
  const kv = replicaKvBytesPerToken(model, hw.kvDtype, hw.tp);
  const budget = kvBudget({
    accelerator: hw.accelerator,
    gpus: hw.tp,
    memoryUtilization: VLLM_GPU_MEMORY_UTILIZATION,
    weightBytes: weightBytes(model, hw.weightDtype),
  }).kvBytes;
  return {
    ...prefillFormula(model, hw),
    iterationOverheadS: hw.iterationOverheadS,
    allReduceFixedS: comm.calls * comm.path.latency,
    allReduceLink: comm.path.linkId,
    allReduceBusBandwidth: hw.tp > 1 ? ringBusBandwidth(comm.path, hw.tp) : 0,
    effectiveBandwidth: effectiveMemBandwidth(hw),
    bandwidthPerGpu: hw.accelerator.memBandwidth,
    mbu: hw.mbu,
    weightBytesStreamed: weightBytesTouched(model, hw.weightDtype, 1e9),
    weightBytesTotal: weightBytes(model, hw.weightDtype),
    kvBytesPerToken: kv,
    kvCapacityTokens: Math.floor(budget / kv),
  };
}
