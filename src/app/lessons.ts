/**
 * The module's twelve lessons: one record each drives the course home, the lesson header, the table of
 * contents of the course, and previous/next navigation. The lesson body lives in lessons/<slug>.mdx.
 */
export interface LessonMeta {
  slug: string;
  number: string;
  title: string;
  /** One line, for the course home. */
  objective: string;
  /** Estimated from the page (lessonTime.ts, lessonMinutes.ts). */
  minutes: number;
  /** Learning objectives, shown at the top of the page. */
  objectives: string[];
}

export const MODULE_TITLE = 'Serving Agents';
export const MODULE_THESIS =
  'An agent is not a chatbot. It is dozens to hundreds of turns against one huge shared prefix, with a tool call stalling the loop in every turn. That breaks the batching and caching assumptions of chat serving and turns the KV cache into a storage tier. This module rebuilds serving around that fact: who holds a session, where its cache lives while a tool runs, what tool definitions and grammars cost, how a 100k-token prompt shares a GPU with decodes, and how many agents a megawatt can keep going.';

import { LESSON_MINUTES } from './lessonMinutes';

type LessonRecord = Omit<LessonMeta, 'minutes'>;

const RECORDS: readonly LessonRecord[] = [
  {
    slug: '07-01-the-agent-workload',
    number: '07.01',
    title: 'The Agent Workload',
    objective: 'Long multi-turn trajectories, input ≫ output, near-total prefix overlap between turns.',
    objectives: [
      'Describe the shape of agent traffic: long multi-turn trajectories, input around a hundred times the output, near-total prefix overlap between turns.',
      'Name the chat-serving assumptions that agent traffic breaks, each with the number that breaks it.',
      'Read a request trace and compute its input:output ratio and ideal prefix hit ratio.',
    ],
  },
  {
    slug: '07-02-session-affinity',
    number: '07.02',
    title: 'Session Affinity',
    objective: 'A session, not a request, is the unit of scheduling; the cost of a cold replica.',
    objectives: [
      'Treat the session, not the request, as the unit of scheduling.',
      'Measure the prefix-cache hit rate across the turns of one trajectory.',
      'Compute the extra time to first token when a turn lands on a replica that has never seen the session.',
      'Predict how request-level routing’s hit rate falls with the number of replicas, and what it costs in TTFT.',
    ],
  },
  {
    slug: '07-03-cache-aware-routing',
    number: '07.03',
    title: 'Cache-Aware Routing',
    objective: 'Route on cache residency, not load; why round-robin is the worst policy here.',
    objectives: [
      'Route requests on cache residency instead of load alone.',
      'Explain why round-robin, right for a stateless service, gives a hit rate that falls as 1/R here.',
      'Tune the load threshold of a cache-aware router against hot-spotting.',
    ],
  },
  {
    slug: '07-04-kv-memory-hierarchy',
    number: '07.04',
    title: 'The KV Memory Hierarchy',
    objective:
      'HBM, host DRAM, local NVMe, a remote pooled store: capacities, bandwidths, and what fits where.',
    objectives: [
      'Derive the KV bytes per token of a model from its architecture (GQA and MLA).',
      'Compute how many agent contexts fit in an accelerator’s HBM after the weights.',
      'Place HBM, host DRAM, local NVMe and a remote pooled store on one capacity/bandwidth ladder.',
    ],
  },
  {
    slug: '07-05-kv-offload-and-reload',
    number: '07.05',
    title: 'KV Offload and Reload',
    objective: 'Bytes over the link against prefill FLOPs; the prefix length where it flips.',
    objectives: [
      'Compare the time to reload a prefix’s KV over a link with the time to recompute it.',
      'Find the break-even prefix length(s) for a link, and the minimum bandwidth at which reload wins.',
      'Explain why the answer depends on the model’s KV bytes per FLOP.',
    ],
  },
  {
    slug: '07-06-tool-calls-in-the-loop',
    number: '07.06',
    title: 'Tool Calls in the Loop',
    objective: 'Hold, offload or evict the paused KV; what the tool latency distribution argues for.',
    objectives: [
      'Weigh holding, offloading and evicting a session’s KV while its tool runs.',
      'Read a tool-latency distribution and choose a time-to-live from it.',
      'Measure the memory idle sessions occupy and the resume latency each policy costs.',
    ],
  },
  {
    slug: '07-07-tool-schema-tax',
    number: '07.07',
    title: 'The Tool Schema Tax',
    objective: 'Tokens of tool definitions on every request; put them where the cache holds them.',
    objectives: [
      'Count the tokens tool definitions add to every request with a real tokenizer.',
      'Order a prompt so the tool block sits in the cached prefix.',
      'Estimate the cost of a tool block that changes between turns.',
    ],
  },
  {
    slug: '07-08-structured-output',
    number: '07.08',
    title: 'Structured Output',
    objective: 'Constrained decoding as a mask over the logits; asking nicely is no guarantee.',
    objectives: [
      'Describe constrained decoding as a mask applied to the logit vector at every step.',
      'Show why a prompt instruction alone cannot guarantee valid output.',
      'Trace a grammar engine’s allowed-token set through a JSON document.',
    ],
  },
  {
    slug: '07-09-what-grammars-cost',
    number: '07.09',
    title: 'What Grammars Cost',
    objective: 'Per-step masking is cheap, compiling a schema is not; the tail of one-shot schemas.',
    objectives: [
      'Separate the per-step cost of masking from the one-off cost of compiling a grammar.',
      'Measure both with a real grammar engine in the browser.',
      'Explain why one-shot schemas put compile time into the TTFT tail, and what a grammar cache buys.',
    ],
  },
  {
    slug: '07-10-long-context-prefill',
    number: '07.10',
    title: 'Long-Context Prefill',
    objective: 'Chunked prefill of a 100k-token prompt without starving decodes; hit rate beats kernels.',
    objectives: [
      'Schedule a 100k-token prefill in chunks without stalling the decodes sharing the GPU.',
      'Choose a chunk size against TTFT and inter-token latency.',
      'Weigh chunking against disaggregated prefill: decode stalls against KV transfer and a second pool.',
      'Show why a higher prefix hit rate beats a faster attention kernel for agents.',
    ],
  },
  {
    slug: '07-11-context-compaction',
    number: '07.11',
    title: 'Context Compaction',
    objective: 'Summarise, prune, retrieve; an edit shifts positions and can destroy the prefix cache.',
    objectives: [
      'Compare summarising, pruning and retrieval as ways to keep a context under its limit.',
      'Explain why an edit early in the prompt invalidates every cached block after it.',
      'Compute the re-prefill cost of a compaction and when it pays back.',
    ],
  },
  {
    slug: '07-12-agents-per-megawatt',
    number: '07.12',
    title: 'Agents per Megawatt',
    objective:
      'SLOs first, then concurrent agents per machine; the per-session cost model and its two levers.',
    objectives: [
      'Fix the latency SLOs first, then find the concurrent agents a machine sustains under them.',
      'Build the per-session cost model from GPU-seconds, power and price.',
      'Identify its two levers, prefix hit rate and idle-KV policy, and size a fleet per megawatt.',
      'Tell when disaggregating prefill pays: when TPOT, not TTFT, is the objective that binds.',
    ],
  },
];

export const LESSONS: readonly LessonMeta[] = RECORDS.map((r) => ({
  ...r,
  minutes: LESSON_MINUTES[r.slug]?.minutes ?? 0,
}));

export function lessonBySlug(slug: string): LessonMeta | undefined {
  return LESSONS.find((l) => l.slug === slug);
}

export function lessonPath(slug: string): string {
  return `/lessons/${slug}`;
}
