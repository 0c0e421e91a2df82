/**
 * The course's terms: what a lesson's first use of each one explains on hover or tap (Term.tsx, placed by the
 * build's rehypeGlossary.ts) and what the glossary page lists. One list drives both, so a definition is written
 * once. Definitions say what a term means here, in serving agents; they carry no figures (a figure belongs to the
 * core or a cited source, where a lesson shows it).
 */

export interface GlossaryTerm {
  /** Anchor on the glossary page (`/glossary#<id>`), and the Term element's `id`. */
  id: string;
  /** The term as the glossary lists it. */
  name: string;
  /** The abbreviation's expansion, when the name is an abbreviation. */
  expansion?: string;
  /** One or two sentences, ending with a full stop. */
  definition: string;
  /**
   * What the term is in a lesson's prose: a regular expression source, matched case-sensitively with word
   * boundaries around it (abbreviations are; a phrase lists its capitalised form too).
   */
  pattern: string;
  /** The lesson of this module whose prose explains it ("07.12"), if one does (a recap counts). */
  explained?: string;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    id: 'ttft',
    name: 'TTFT',
    expansion: 'time to first token',
    definition:
      'The time from a request reaching the server to its first output token: queueing, reloading any offloaded KV, and prefilling the part of the prompt not found in the cache. For an agent, the pause between a tool result and its next action.',
    pattern: 'TTFT',
    explained: '07.12',
  },
  {
    id: 'goodput',
    name: 'goodput',
    definition:
      'The share of requests (or of their tokens) served within every objective at once, a TTFT and a TPOT bound: throughput that misses an objective is not counted.',
    pattern: 'goodput',
    explained: '07.06',
  },
  {
    id: 'tpot',
    name: 'TPOT',
    expansion: 'time per output token',
    definition:
      'The mean gap between a request’s consecutive output tokens after the first: the decode speed its client sees.',
    pattern: 'TPOT',
    explained: '07.12',
  },
  {
    id: 'percentile',
    name: 'p50, p90, p99',
    expansion: 'percentiles',
    definition:
      'The value below which 50%, 90% or 99% of the observations fall. Serving objectives bound a tail percentile, because users notice the slow requests, not the typical one.',
    pattern: 'p(?:50|90|95|99)',
  },
  {
    id: 'slo',
    name: 'SLO',
    expansion: 'service-level objective',
    definition:
      'A target the service promises on one metric, such as a bound on a tail percentile of TTFT. Capacity is the load at which every objective still holds.',
    pattern: 'SLOs?',
    explained: '07.12',
  },
  {
    id: 'kv-cache',
    name: 'KV cache',
    definition:
      'The keys and values every attention layer computed for each token of the context, kept so that later tokens attend to them without computing them again. It grows with the context, and an agent’s long context makes it the largest thing a replica holds after the weights.',
    pattern: 'KV cache',
    explained: '07.04',
  },
  {
    id: 'prefill',
    name: 'Prefill',
    definition:
      'The forward pass over the prompt tokens whose KV is not cached yet: all of them at once, so it is limited by compute for long prompts. When nothing queues, it is most of a turn’s TTFT.',
    pattern: '[Pp]refill(?:s|ed|ing)?',
    explained: '07.01',
  },
  {
    id: 'decode',
    name: 'Decode',
    definition:
      'Generating the output one token per step. Each step reads the weights and every running sequence’s KV, so at small batches it is limited by memory bandwidth rather than compute.',
    pattern: '[Dd]ecod(?:e|es|ing)',
    explained: '07.01',
  },
  {
    id: 'continuous-batching',
    name: 'Continuous batching',
    definition:
      'The scheduler adds sequences to the running batch and removes finished ones at every iteration, instead of running a fixed batch to its end.',
    pattern: '[Cc]ontinuous batching',
    explained: '07.10',
  },
  {
    id: 'chunked-prefill',
    name: 'Chunked prefill',
    definition:
      'Splitting a long prefill into chunks of a fixed number of tokens, each run in one iteration beside the batch’s decode steps, so that the decoding sequences keep getting tokens while a long prompt is read.',
    pattern: '[Cc]hunked prefill',
    explained: '07.10',
  },
  {
    id: 'prefix-cache',
    name: 'Prefix cache',
    definition:
      'Reuse of the KV that an earlier request computed for the same leading tokens. Only an exact prefix is reusable: a token’s keys and values depend on every token before it.',
    pattern: '[Pp]refix cach(?:e|es|ing)',
    explained: '07.01',
  },
  {
    id: 'hbm',
    name: 'HBM',
    expansion: 'high-bandwidth memory',
    definition:
      'The memory stacked beside the GPU’s die: the fastest and smallest tier of the KV hierarchy, holding the weights and the running sequences’ KV.',
    pattern: 'HBM',
    explained: '07.04',
  },
  {
    id: 'dram',
    name: 'DRAM',
    expansion: 'host memory',
    definition:
      'The CPU’s main memory: much larger than HBM and reached from the GPU over PCIe or a chip-to-chip link, the first tier KV is offloaded to.',
    pattern: 'DRAM',
    explained: '07.04',
  },
  {
    id: 'nvme',
    name: 'NVMe',
    definition:
      'Solid-state drives attached over PCIe: a KV tier larger and slower than host DRAM, on the same machine.',
    pattern: 'NVMe',
    explained: '07.04',
  },
  {
    id: 'rdma',
    name: 'RDMA',
    expansion: 'remote direct memory access',
    definition:
      'Transfers between the memories of two machines over the network without either CPU copying the data: how KV moves to and from a shared pool, or from a prefill worker to a decode worker.',
    pattern: 'RDMA',
    explained: '07.04',
  },
  {
    id: 'offload',
    name: 'Offload',
    definition:
      'Moving KV out of HBM to a lower tier (DRAM, NVMe, a remote pool) to free HBM, so that a later turn can read it back instead of computing it again.',
    pattern: '[Oo]ffload(?:s|ed|ing)?',
    explained: '07.05',
  },
  {
    id: 'tensor-parallelism',
    name: 'Tensor parallelism',
    expansion: 'TP',
    definition:
      'Splitting each layer’s weight matrices across the GPUs of one replica; they combine their partial results with two all-reduces per layer, which the GPUs wait for.',
    pattern: '[Tt]ensor(?:-| )parallel(?:ism)?|TP',
    explained: '07.02',
  },
  {
    id: 'gqa',
    name: 'GQA',
    expansion: 'grouped-query attention',
    definition:
      'Several query heads share one key and value head, which divides the KV cache by the size of the group.',
    pattern: 'GQA',
    explained: '07.04',
  },
  {
    id: 'mla',
    name: 'MLA',
    expansion: 'multi-head latent attention',
    definition:
      'DeepSeek’s attention, which caches one compressed latent vector per token and layer instead of keys and values per head: a much smaller KV cache.',
    pattern: 'MLA',
    explained: '07.04',
  },
  {
    id: 'moe',
    name: 'MoE',
    expansion: 'mixture of experts',
    definition:
      'A model whose feed-forward layers are many experts, of which each token runs through a few: the parameters active per token are a fraction of the total.',
    pattern: 'MoE',
  },
  {
    id: 'lru',
    name: 'LRU',
    expansion: 'least recently used',
    definition: 'An eviction policy that removes first the entry whose last use is oldest.',
    pattern: 'LRU',
    explained: '07.06',
  },
  {
    id: 'ttl',
    name: 'TTL',
    expansion: 'time to live',
    definition:
      'How long something is kept before it is let go: here, how long a session’s KV stays pinned in HBM through a tool call before it is offloaded or evicted.',
    pattern: 'TTL',
    explained: '07.06',
  },
  {
    id: 'tool-call',
    name: 'Tool call',
    definition:
      'The model’s structured request to run a function. The agent’s runtime runs it and appends the result to the context, and the next turn starts from there.',
    pattern: '[Tt]ool calls?',
    explained: '07.06',
  },
  {
    id: 'grammar-mask',
    name: 'Token mask',
    definition:
      'A bitmask over the vocabulary computed before each decode step from a grammar (a JSON schema, say): the tokens it forbids get no probability, so the output stays valid.',
    pattern: '(?:[Tt]oken |[Gg]rammar |bit)masks?',
    explained: '07.08',
  },
  {
    id: 'disaggregation',
    name: 'Disaggregated prefill',
    definition:
      'Prefill and decode run on separate workers: the prefill worker computes a prompt’s KV and ships it to a decode worker, so long prefills never stall decoding.',
    pattern: '[Dd]isaggregat(?:ed|ion)',
    explained: '07.10',
  },
  {
    id: 'pue',
    name: 'PUE',
    expansion: 'power usage effectiveness',
    definition:
      'A facility’s total power divided by the power of its IT equipment: what cooling and power conversion add on top of the servers.',
    pattern: 'PUE',
    explained: '07.12',
  },
  {
    id: 'roofline',
    name: 'Roofline',
    definition:
      'A pass’s time as the longer of its arithmetic (its FLOPs over the FLOP/s the GPUs achieve) and its memory traffic (its bytes over the bandwidth they achieve): whichever is longer makes the pass compute-bound or memory-bound.',
    pattern: '[Rr]ooflines?',
    explained: '07.04',
  },
  {
    id: 'all-reduce',
    name: 'All-reduce',
    definition:
      'A collective operation after which every GPU of a group holds the sum of all their inputs: how tensor-parallel GPUs combine their partial results, twice per layer.',
    pattern: '[Aa]ll-reduces?',
    explained: '07.02',
  },
  {
    id: 'token-budget',
    name: 'Token budget',
    definition:
      'The most tokens one iteration may compute (vLLM’s max_num_batched_tokens): a token for each decoding sequence, and the rest for chunks of prefill.',
    pattern: '[Tt]oken budgets?',
    explained: '07.10',
  },
  {
    id: 'session-affinity',
    name: 'Session affinity',
    definition:
      'Routing every turn of a session to the replica that served its previous turn, where its context’s KV may still be cached.',
    pattern: '[Ss]ession affinity',
    explained: '07.02',
  },
  {
    id: 'cache-aware-routing',
    name: 'Cache-aware routing',
    definition:
      'Routing a request to the replica whose cache holds the longest prefix of its prompt, weighed against how busy each replica is.',
    pattern: '[Cc]ache-aware rout(?:ing|ers?)',
    explained: '07.03',
  },
  {
    id: 'compaction',
    name: 'Compaction',
    definition:
      'Rewriting an agent’s context to make it shorter (a summary of old turns, old tool results dropped): fewer tokens to hold and attend to, at the price of the cached prefix, which the rewritten context no longer matches.',
    pattern: '[Cc]ompaction',
    explained: '07.11',
  },
  {
    id: 'mbu',
    name: 'MBU',
    expansion: 'memory-bandwidth utilisation',
    definition:
      'The share of the GPUs’ peak memory bandwidth a pass achieves; its counterpart for arithmetic is MFU, model FLOPs utilisation.',
    pattern: 'MBU',
    explained: '07.10',
  },
  {
    id: 'pcie',
    name: 'PCIe',
    definition:
      'The bus that links a GPU to its host’s CPU, memory and drives: the path offloaded KV takes to host DRAM and local NVMe.',
    pattern: 'PCIe',
    explained: '07.04',
  },
  {
    id: 'nvlink',
    name: 'NVLink',
    definition:
      'NVIDIA’s link between the GPUs of a node, much faster than PCIe: what tensor-parallel all-reduces run over.',
    pattern: 'NVLink',
  },
  {
    id: 'write-through',
    name: 'Write-through',
    definition:
      'Copying each block to a lower tier as soon as it is computed, so that evicting it from HBM later moves nothing.',
    pattern: '[Ww]rite(?:-| )through',
    explained: '07.06',
  },
];

export const TERM_BY_ID: ReadonlyMap<string, GlossaryTerm> = new Map(GLOSSARY.map((t) => [t.id, t]));

/** The glossary page at one term. */
export function glossaryPath(id: string): string {
  return `/glossary#${id}`;
}
