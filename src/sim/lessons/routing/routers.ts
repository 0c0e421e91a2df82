/**
 * Lesson 07.03's routing policies as fleet router configs: SGLang's cache_aware policy with the defaults of
 * sglang-router 0.3.0 (the same in smg 1.9.0, its successor's latest release), over the view the widget names, llm-d's scheduler in its two configurations, and the load-only ones.
 */
import type { RouterConfig } from '../../engine/fleet/router';
import { SGLANG_ROUTER_DEFAULTS } from '../../engine/fleet/routerDefaults';
import type { CacheViewConfig } from '../../engine/fleet/view';
import type { CacheViewKind, RouterPolicy } from './constants';

/**
 * The router's view behind each choice of the widget: 'exact' reads the caches as they are (what llm-d's precise
 * scorer gets from the engines' KV events); 'approximate' is SGLang's router's own radix tree of the prompts it
 * routed, with sglang-router 0.3.0's size and trim interval (fleet/views/sglangRadix.ts), blind to evictions.
 */
export function cacheViewConfig(view: CacheViewKind): CacheViewConfig {
  return view === 'approximate' ? { kind: 'sglang-radix' } : { kind: 'exact' };
}

export function routerConfig(
  policy: RouterPolicy,
  loadThreshold: number,
  view: CacheViewKind = 'exact',
): RouterConfig & { view?: CacheViewConfig } {
  switch (policy) {
    case 'least-load':
      return { kind: 'least-outstanding' };
    case 'cache-aware':
      // SGLang's cache_aware policy with sglang-router 0.3.0's defaults (fleet/routerDefaults.ts: sgl-model-gateway
      // main.rs; unchanged in smg 1.9.0), except the absolute balance threshold, the widget's.
      return {
        kind: 'cache-aware',
        scoring: 'threshold',
        cacheThreshold: SGLANG_ROUTER_DEFAULTS.cacheThreshold,
        balanceAbsThreshold: loadThreshold,
        balanceRelThreshold: SGLANG_ROUTER_DEFAULTS.balanceRelThreshold,
        onMiss: SGLANG_ROUTER_DEFAULTS.onMiss,
        view: cacheViewConfig(view),
      };
    case 'session-affinity':
      return { kind: 'session-affinity' };
    case 'llm-d-approximate':
      // llm-d-router's default profile (queue 2, kv-cache-utilization 2, prefix-cache 3) over its approximate
      // index with the window, block and capacity of GAIE v1.0.0, as llm-d benchmarked it in September 2025
      // (llm-d-router's window has been 131,072 tokens since PR #1548; fleet/llmd.ts,
      // fleet/views/llmdApproximate.ts).
      return { kind: 'llm-d', view: { kind: 'llm-d-approximate' } };
    case 'llm-d-approximate-messages':
      // The same index over the chat messages alone: GAIE v1.0.0 hashes the messages' roles and text
      // (pkg/epp/util/request/body.go), so an agent's tool schemas sent in the `tools` field are not in it.
      return { kind: 'llm-d', view: { kind: 'llm-d-approximate', hashes: 'messages' } };
    case 'llm-d-precise':
      // The precise configuration of llm-d's benchmark (llm-d-kv-cache benchmarking/73-capacity): precise prefix
      // 3, kv-cache-utilization 2, queue 2, over the KV-event index.
      return {
        kind: 'llm-d',
        scorers: [
          { type: 'precise-prefix-cache', weight: 3 },
          { type: 'kv-cache-utilization', weight: 2 },
          { type: 'queue', weight: 2 },
        ],
        view: { kind: 'precise' },
      };
    default:
      return { kind: policy };
  }
}

