/**
 * The fixed work every request costs outside the GPU's iterations: the gateway's hop (and, for llm-d's precise
 * prefix scorer, the endpoint picker's own tokenisation of the prompt), the API server's tokenisation, scheduling
 * and, on the way back, detokenisation and streaming. The simulator charges it as a delay between the send and
 * the request reaching the router and the engine's queue (`beforeS`: it shows in TTFT and e2e, and a cache-aware
 * router decides only once the prompt is tokenised, as llm-d's EPP does) and a delay on every request's first
 * token (`firstTokenS`: detokenising and streaming the first chunk). It occupies no GPU and no replica.
 *
 * Off by default (all zero): the lab's engine figures (cost model rows in `npm run validate`) are fitted to the
 * engines' own step times, and the overhead is the same for every router and pause policy a lesson compares, so it
 * would move absolute TTFTs by a few tens of milliseconds and no verdict. A scenario modelling a serving stack
 * end to end sets `requestOverhead`, from a preset or in seconds.
 */
import { isObj, type SchemaValidator } from './schemaValidator';

export interface RequestOverheadConfig {
  /** Seconds per request before it reaches the router (gateway hop, scheduling). */
  fixedS?: number;
  /** Seconds per prompt token before it reaches the router (tokenisation, once per tokenising hop). */
  perPromptTokenS?: number;
  /** Seconds added to the first token (detokenisation and the first streamed chunk). */
  firstTokenS?: number;
}

/**
 * Hugging Face fast tokenizers encode at about 10 µs a token once warm (tenstorrent/tt-inference-server issue
 * #2173: 131 tokens in 1.32–2.82 ms, 10.1–21.5 µs/token, the first call slowest; we take the warm figure).
 */
export const HF_TOKENIZE_S_PER_TOKEN = 10e-6;

/**
 * The endpoint picker's request path: the gateway-api-inference-extension EPP (v1.5.0, Istio ext_proc, instant
 * backends) plateaus at ≈ 130 requests/s for 220 KB prompts (kubernetes-sigs/gateway-api-inference-extension issue
 * #2928, llm-d/llm-d-router #1109): ≈ 7.7 ms of EPP work per 220 KB, ≈ 1 ms for a 7,200-token (≈ 30 KB) prompt.
 * We charge that millisecond as the gateway's fixed hop.
 */
export const EPP_HOP_S = 0.001;

/** Presets: a bare vLLM server (one tokenisation), and llm-d's precise path (the EPP tokenises too). */
export const REQUEST_OVERHEAD_PRESETS: Record<string, Required<RequestOverheadConfig>> = {
  none: { fixedS: 0, perPromptTokenS: 0, firstTokenS: 0 },
  vllm: { fixedS: 0, perPromptTokenS: HF_TOKENIZE_S_PER_TOKEN, firstTokenS: 0 },
  'llm-d-gateway': { fixedS: EPP_HOP_S, perPromptTokenS: HF_TOKENIZE_S_PER_TOKEN, firstTokenS: 0 },
  'llm-d-precise': { fixedS: EPP_HOP_S, perPromptTokenS: 2 * HF_TOKENIZE_S_PER_TOKEN, firstTokenS: 0 },
};

export type RequestOverheadRef = keyof typeof REQUEST_OVERHEAD_PRESETS | RequestOverheadConfig;

export function resolveOverhead(x: RequestOverheadRef | undefined): Required<RequestOverheadConfig> {
  if (x === undefined) return REQUEST_OVERHEAD_PRESETS.none;
  if (typeof x === 'string') return REQUEST_OVERHEAD_PRESETS[x];
  return { fixedS: x.fixedS ?? 0, perPromptTokenS: x.perPromptTokenS ?? 0, firstTokenS: x.firstTokenS ?? 0 };
}

/** Seconds between the send and the request reaching the router. */
export function beforeRouteS(o: Required<RequestOverheadConfig>, promptTokens: number): number {
  return o.fixedS + o.perPromptTokenS * promptTokens;
}

export function validateOverhead(v: SchemaValidator, x: unknown): void {
  if (x === undefined) return;
  const p = 'requestOverhead';
  if (typeof x === 'string') {
    if (!(x in REQUEST_OVERHEAD_PRESETS))
      v.err(p, `unknown preset "${x}" (presets: ${Object.keys(REQUEST_OVERHEAD_PRESETS).join(', ')})`);
    return;
  }
  if (!isObj(x)) return v.err(p, 'must be a preset name or {fixedS?, perPromptTokenS?, firstTokenS?}');
  const keys = ['fixedS', 'perPromptTokenS', 'firstTokenS'];
  v.known(x, p, keys);
  for (const k of keys) {
    const s = x[k];
    if (s !== undefined && !(typeof s === 'number' && Number.isFinite(s) && s >= 0 && s <= 60))
      v.err(`${p}.${k}`, `must be seconds between 0 and 60 (got ${JSON.stringify(s)})`);
  }
}
