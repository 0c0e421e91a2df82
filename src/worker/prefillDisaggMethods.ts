/**
 * Worker method of lesson 07.10's comparison of chunked and disaggregated prefill (src/sim/lessons/longPrefillDisagg.ts)
 * for the lesson's replica: the chunked side at each prose chunk, the disaggregated side over a fast link (the
 * catalog's RDMA NIC, one per GPU) and a slow one (TCP over the node's Ethernet, one aggregate link).
 */
import { asRefusal } from './badRequest';
import { replicaHardware } from './replicaHardware';
import { disaggComparison, type DisaggComparison } from '../sim/lessons/longPrefillDisagg';

export interface DisaggLinkChoice {
  linkId: string;
  /** NICs per replica in parallel. */
  nics: number;
}

export interface PrefillDisaggRequest {
  modelId: string;
  acceleratorId: string;
  gpus: number;
  promptTokens: number;
  decodes: number;
  decodeContext: number;
  chunks: number[];
  fast: DisaggLinkChoice;
  slow: DisaggLinkChoice;
  /** Long prompts a minute reaching one decode replica. */
  longPromptsPerMinute: number;
}

export interface PrefillDisaggResponse {
  modelName: string;
  acceleratorName: string;
  /** One comparison per chunk over the fast link. */
  byChunk: { chunk: number; result: DisaggComparison }[];
  /** The first chunk's comparison over the slow link. */
  slow: DisaggComparison;
}

const cache = new Map<string, PrefillDisaggResponse>();

export function prefillDisagg(req: PrefillDisaggRequest): PrefillDisaggResponse {
  const key = JSON.stringify(req);
  const hit = cache.get(key);
  if (hit) return hit;
  const { model, accelerator, hw } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  return asRefusal(() => {
    if (req.chunks.length === 0) throw new RangeError('chunks must name at least one chunk size');
    const base = {
      model,
      hw,
      promptTokens: req.promptTokens,
      decodes: req.decodes,
      decodeContext: req.decodeContext,
      promptsPerS: req.longPromptsPerMinute / 60,
    };
    const byChunk = req.chunks.map((chunk) => ({
      chunk,
      result: disaggComparison({ ...base, chunk, linkId: req.fast.linkId, nics: req.fast.nics }),
    }));
    const slow = disaggComparison({
      ...base,
      chunk: req.chunks[0],
      linkId: req.slow.linkId,
      nics: req.slow.nics,
    });
    const out = { modelName: model.name, acceleratorName: accelerator.name, byChunk, slow };
    if (cache.size > 8) cache.clear();
    cache.set(key, out);
    return out;
  });
}

export const prefillDisaggMethods = { prefillDisagg };
