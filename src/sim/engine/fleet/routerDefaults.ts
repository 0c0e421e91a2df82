/**
 * The routers' and views' defaults as the systems ship them, by version: plain data (no simulator code), so a
 * lesson's prose can quote them without pulling the router into the page. fleet/router.ts and fleet/views/*.ts
 * apply them; the sources are cited beside each.
 */

/**
 * SGLang router defaults of the latest releases, sglang-router 0.3.0 and its successor smg 1.9.0 (smg-project/smg,
 * tag v1.9.0, model_gateway/src/main.rs): sgl-project/sglang sgl-model-gateway/src/main.rs (commit 01f6c92, the
 * `smg launch` CLI) `--cache-threshold 0.3`, `--balance-abs-threshold 64`, `--balance-rel-threshold 1.5`,
 * `--eviction-interval 120`, `--max-tree-size 67108864`; the Python launcher
 * sgl-model-gateway/bindings/python/src/sglang_router/router_args.py has the same three thresholds. The cache
 * miss goes to the least-loaded worker (sgl-model-gateway/src/policies/cache_aware.rs `select_worker`). smg's
 * development branch (PR #2161) gates only the chosen worker against the fleet's mean load; not modelled.
 */
export const SGLANG_ROUTER_DEFAULTS = {
  cacheThreshold: 0.3,
  balanceAbsThreshold: 64,
  balanceRelThreshold: 1.5,
  onMiss: 'least-load',
} as const;

/**
 * SGLang router defaults as of SGLang v0.4 (sgl-router, 2024-12; the LMSYS v0.4 blog and the sgl-router README
 * of the time; sgl-router's Python `RouterArgs`, py_src/sglang_router/launch_router.py: cache_threshold 0.5,
 * balance_abs_threshold 32, balance_rel_threshold 1.0001, eviction_interval 60, max_tree_size 2**24), and a miss
 * goes to the worker with the smallest tree (sgl-router src/router.rs `get_smallest_tenant`).
 */
export const SGLANG_V04_ROUTER_DEFAULTS = {
  cacheThreshold: 0.5,
  balanceAbsThreshold: 32,
  balanceRelThreshold: 1.0001,
  onMiss: 'smallest-tree',
} as const;

/**
 * llm-d's approximate prefix-cache scorer (views/llmdApproximate.ts): GAIE v1.0.0
 * pkg/epp/scheduling/framework/plugins/multi/prefix/plugin.go (DefaultHashBlockSize 64 characters = 16 tokens at
 * 4 characters a token, DefaultMaxPrefixBlocks 256, DefaultLRUCapacityPerServer 31250), the version llm-d's
 * September 2025 benchmark ran; llm-d-router (formerly llm-d-inference-scheduler) HEAD 520af47
 * approximateprefix/types.go (the same in tokens). Since llm-d-router PR #1548 (2026-06-11) its defaults are
 * maxPrefixTokensToMatch 131072 and maxPrefixBlocksToMatch 2048 (not auto-tuned), blocks under 64 tokens raised
 * to 64 (types.go and README at ebab687); the lab keeps the benchmark's values.
 */
export const LLMD_APPROX_DEFAULTS = {
  blockTokens: 16,
  maxPrefixBlocks: 256,
  lruCapacityPerServer: 31_250,
} as const;

/**
 * The same scorer as llm-d-router ships it since PR #1548 (2026-06-11; approximateprefix/types.go and its README at
 * ebab687): a window of maxPrefixTokensToMatch = 131,072 tokens, in blocks of vLLM's 16 tokens raised to the
 * minimum of 64 (2,048 blocks), and `autoTune` (default true) sizing the index from the pod's KV capacity.
 */
export const LLMD_APPROX_CURRENT = {
  blockTokens: 64,
  maxPrefixBlocks: 2_048,
  lruCapacityPerServer: 'auto',
} as const;

/** SGLang's approximate radix tree (views/sglangRadix.ts): sgl-model-gateway/src/main.rs (commit 01f6c92). */
export const SGLANG_RADIX_DEFAULTS = {
  maxTreeSize: 67_108_864,
  evictionIntervalS: 120,
  charsPerToken: 4,
} as const;

/**
 * The lab's session-affinity router moves a session off its replica when that replica's outstanding tokens exceed
 * max(overloadMinTokens, overloadRatio × the fleet's mean): an escape of the lab's own, so that one long trajectory
 * cannot pin a replica while its neighbours idle. vLLM's session router and SGLang's `manual` policy ship none (a
 * session stays until its replica leaves the fleet, or in SGLang's until its key idles `--max-idle-secs`, 4 h:
 * smg v1.9.0 policies/manual.rs), so on a skewed load they queue where this router moves.
 */
export const LAB_AFFINITY_ESCAPE = {
  overloadRatio: 2,
  overloadMinTokens: 16_384,
} as const;
