/**
 * Lesson 07.10: chunked prefill against disaggregated prefill for one long prompt arriving at a replica that is
 * decoding N sessions.
 *
 * Chunked (the timeline of longPrefill.ts): the prompt's chunks share the replica's iterations with the decodes,
 * so the prompt's TTFT is the sum of those iterations and every decode token in the meantime waits one of them:
 *   TPOT inflation = mean gap during the prefill / the decode step,
 *   time lost per stream = TTFT − (iterations × decode step).
 *
 * Disaggregated (the mechanism of src/sim/engine/fleet/disagg.ts, in closed form for one prompt on idle links):
 * a prefill replica of the same hardware prefills the prompt with no decodes beside it, in chunks of its token
 * budget; the KV, bytes = ⌈P / b⌉ · b · KV bytes per token (b the engine's block; every copy the ranks hold), crosses the NICs at
 * `nics × bandwidth`; the decode replica then computes the prompt's last token in one iteration with its decodes.
 *   after-prefill (vLLM NixlConnector): exposed transfer = bytes / bw + latency,
 *   layerwise (Mooncake; vLLM's P2pNcclConnector until PR #44854):
 *     exposed = max(bytes / bw − prefill, bytes / (L · bw)) + latency,
 *   TTFT = prefill + exposed transfer + the decode replica's first iteration,
 * and the decodes' gap stays the decode step plus that one iteration's extra token. The price is the prefill
 * replica: its GPUs are busy `prefill` seconds per prompt, so one prefill replica takes at most 1 / prefill long
 * prompts a second (then with a queue); at `promptsPerS` per decode replica it is busy promptsPerS × prefill of
 * the time for each decode replica it serves, and ⌊1 / (promptsPerS × prefill)⌋ decode replicas fill it.
 *
 * Pure: no DOM, no randomness. Units: seconds, bytes, tokens.
 */
import { resolveLink } from '../engine/catalog/index';
import type { ModelSpec } from '../engine/catalog/models';
import { iterationCost, type HardwareConfig } from '../engine/cost';
import { replicaKvBytesPerToken } from '../engine/flopsAndBytes';
import { ENGINE_BLOCK_SIZE } from '../engine/blocks';
import { prefillTimeline } from './longPrefill';

/**
 * A prefill worker's token budget: vLLM's default max_num_batched_tokens for the OpenAI server on a large GPU,
 * 8,192 (vllm/engine/arg_utils.py, the V1 defaults by usage context).
 */
export const PREFILL_WORKER_BUDGET = 8192;

export interface DisaggSetup {
  model: ModelSpec;
  hw: HardwareConfig;
  promptTokens: number;
  decodes: number;
  decodeContext: number;
  /** Chunk of the chunked-prefill side. */
  chunk: number;
  /** Catalog link id of one NIC (e.g. rdma-400g-cx7). */
  linkId: string;
  /** NICs per replica used in parallel (default: one per GPU). */
  nics?: number;
  /** The prefill replica's chunk (default PREFILL_WORKER_BUDGET). */
  prefillChunk?: number;
  /** Long prompts per second reaching one decode replica, for the pools' ratio. */
  promptsPerS: number;
}

export interface ChunkedSide {
  ttftS: number;
  /** Longest gap between two decode tokens while the prompt prefills. */
  gapMaxS: number;
  /** Mean gap over the prefill, and its ratio to the decode-only step. */
  gapMeanS: number;
  tpotInflation: number;
  /** Per decoding stream: time lost to the prompt's chunks, and the tokens it would have had in that time. */
  lostPerStreamS: number;
  tokensLostPerStream: number;
  iterations: number;
}

export interface DisaggSide {
  /** The prompt's prefill on the prefill replica, alone. */
  prefillS: number;
  bytes: number;
  blocks: number;
  bandwidth: number;
  linkName: string;
  /** Time on the wire, and what each mode leaves after the prefill. */
  wireS: number;
  afterPrefillS: number;
  layerwiseS: number;
  /** The decode replica's iteration that computes the prompt's last token with its decodes. */
  firstStepS: number;
  ttftAfterPrefillS: number;
  ttftLayerwiseS: number;
  /** The decodes' longest gap: that one iteration (no other iteration carries the prompt). */
  gapMaxS: number;
  /** The most long prompts per second one prefill replica can take (busy all the time). */
  capacityPerS: number;
  /** Its busy share when it serves one decode replica at promptsPerS. */
  utilisationPerDecodeReplica: number;
  /** Decode replicas one prefill replica can serve before it is busy all the time. */
  decodeReplicasPerPrefill: number;
}

export interface DisaggComparison {
  decodeStepS: number;
  chunked: ChunkedSide;
  disagg: DisaggSide;
}

function positive(name: string, v: number): void {
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be > 0, got ${v}`);
}

export function disaggComparison(s: DisaggSetup): DisaggComparison {
  positive('promptsPerS', s.promptsPerS);
  const { model, hw, promptTokens: P, decodes: N, decodeContext: D } = s;
  const tl = prefillTimeline({ model, hw, promptTokens: P, decodes: N, decodeContext: D, chunk: s.chunk });
  const step = tl.decodeStepS;
  const chunked: ChunkedSide = {
    ttftS: tl.ttftS,
    gapMaxS: tl.gaps.max,
    gapMeanS: tl.gaps.mean,
    tpotInflation: tl.gaps.mean / step,
    lostPerStreamS: tl.ttftS - tl.prefillIterations * step,
    tokensLostPerStream: tl.ttftS / step - tl.prefillIterations,
    iterations: tl.prefillIterations,
  };
  // The prefill replica: no decodes, chunks of its budget.
  const alone = prefillTimeline({
    model,
    hw,
    promptTokens: P,
    decodes: 0,
    decodeContext: 0,
    chunk: s.prefillChunk ?? PREFILL_WORKER_BUDGET,
    leadIterations: 0,
    tailIterations: 0,
  });
  const link = resolveLink(s.linkId);
  const nics = s.nics ?? hw.tp;
  positive('nics', nics);
  const bandwidth = link.effectiveBandwidth * nics;
  const blocks = Math.ceil(P / ENGINE_BLOCK_SIZE);
  // Each rank sends what it holds, every copy of a replicated head or latent included.
  const bytes = blocks * ENGINE_BLOCK_SIZE * replicaKvBytesPerToken(model, hw.kvDtype, hw.tp);
  const wireS = bytes / bandwidth;
  const afterPrefillS = wireS + link.latency;
  const layerwiseS = Math.max(wireS - alone.ttftS, wireS / model.layers) + link.latency;
  const ctxs = new Array<number>(N).fill(D + 1);
  const firstStepS = iterationCost(model, hw, {
    prefill: [{ newTokens: 1, cachedTokens: P - 1 }],
    decodeContextTokens: ctxs,
  }).time;
  const disagg: DisaggSide = {
    prefillS: alone.ttftS,
    bytes,
    blocks,
    bandwidth,
    linkName: nics > 1 ? `${nics} × ${link.name}` : link.name,
    wireS,
    afterPrefillS,
    layerwiseS,
    firstStepS,
    ttftAfterPrefillS: alone.ttftS + afterPrefillS + firstStepS,
    ttftLayerwiseS: alone.ttftS + layerwiseS + firstStepS,
    gapMaxS: Math.max(step, firstStepS),
    capacityPerS: 1 / alone.ttftS,
    utilisationPerDecodeReplica: s.promptsPerS * alone.ttftS,
    decodeReplicasPerPrefill: Math.floor(1 / (s.promptsPerS * alone.ttftS)),
  };
  return { decodeStepS: step, chunked, disagg };
}
