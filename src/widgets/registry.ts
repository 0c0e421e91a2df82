/**
 * Every widget by id: which lesson it belongs to and how to load it alone (the standalone route /widget/<id>).
 * The ids are the ones each widget gives its frame (data-widget); the browser test of the standalone route opens
 * every entry and checks that the widget it finds carries that id.
 */
import type { ComponentType } from 'react';

export interface WidgetEntry {
  id: string;
  lesson: string;
  load: () => Promise<ComponentType>;
}

export const WIDGETS: readonly WidgetEntry[] = [
  {
    id: 'traffic-shape',
    lesson: '07-01-the-agent-workload',
    load: () => import('./traffic-shape/TrafficShape').then((m) => m.TrafficShape),
  },
  {
    id: 'trajectory-anatomy',
    lesson: '07-01-the-agent-workload',
    load: () => import('./trajectory-anatomy/TrajectoryAnatomy').then((m) => m.TrajectoryAnatomy),
  },
  {
    id: 'affinity-fleet',
    lesson: '07-02-session-affinity',
    load: () => import('./session-affinity/AffinityFleet').then((m) => m.AffinityFleet),
  },
  {
    id: 'affinity-replay',
    lesson: '07-02-session-affinity',
    load: () => import('./session-affinity/AffinityReplay').then((m) => m.AffinityReplay),
  },
  {
    id: 'cache-router',
    lesson: '07-03-cache-aware-routing',
    load: () => import('./cache-router/CacheRouter').then((m) => m.CacheRouter),
  },
  {
    id: 'round-robin-spread',
    lesson: '07-03-cache-aware-routing',
    load: () => import('./cache-router/RoundRobinSpread').then((m) => m.RoundRobinSpread),
  },
  {
    id: 'router-sweep',
    lesson: '07-03-cache-aware-routing',
    load: () => import('./cache-router/RouterSweep').then((m) => m.RouterSweep),
  },
  {
    id: 'kv-footprint',
    lesson: '07-04-kv-memory-hierarchy',
    load: () => import('./kv-footprint/KvFootprint').then((m) => m.KvFootprint),
  },
  {
    id: 'kv-hierarchy',
    lesson: '07-04-kv-memory-hierarchy',
    load: () => import('./kv-hierarchy/KvHierarchy').then((m) => m.KvHierarchy),
  },
  {
    id: 'memory-ladder',
    lesson: '07-04-kv-memory-hierarchy',
    load: () => import('./memory-ladder/MemoryLadder').then((m) => m.MemoryLadder),
  },
  {
    id: 'min-link-bandwidth',
    lesson: '07-05-kv-offload-and-reload',
    load: () => import('./kv-offload/MinLinkBandwidth').then((m) => m.MinLinkBandwidth),
  },
  {
    id: 'reload-or-recompute',
    lesson: '07-05-kv-offload-and-reload',
    load: () => import('./kv-offload/ReloadOrRecompute').then((m) => m.ReloadOrRecompute),
  },
  {
    id: 'pause-arena',
    lesson: '07-06-tool-calls-in-the-loop',
    load: () => import('./tool-pause/PauseArena').then((m) => m.PauseArena),
  },
  {
    id: 'tool-latency',
    lesson: '07-06-tool-calls-in-the-loop',
    load: () => import('./tool-pause/ToolLatency').then((m) => m.ToolLatency),
  },
  {
    id: 'tool-block-layout',
    lesson: '07-07-tool-schema-tax',
    load: () => import('./tool-schema/ToolBlockLayout').then((m) => m.ToolBlockLayout),
  },
  {
    id: 'tool-schema-tax',
    lesson: '07-07-tool-schema-tax',
    load: () => import('./tool-schema/ToolSchemaTax').then((m) => m.ToolSchemaTax),
  },
  {
    id: 'asking-nicely',
    lesson: '07-08-structured-output',
    load: () => import('./structured-output/AskingNicely').then((m) => m.AskingNicely),
  },
  {
    id: 'mask-logits',
    lesson: '07-08-structured-output',
    load: () => import('./structured-output/MaskOverLogits').then((m) => m.MaskOverLogits),
  },
  {
    id: 'mask-stepper',
    lesson: '07-08-structured-output',
    load: () => import('./structured-output/MaskStepper').then((m) => m.MaskStepper),
  },
  {
    id: 'grammar-cache',
    lesson: '07-09-what-grammars-cost',
    load: () => import('./grammar-cost/GrammarCache').then((m) => m.GrammarCache),
  },
  {
    id: 'grammar-cost',
    lesson: '07-09-what-grammars-cost',
    load: () => import('./grammar-cost/GrammarCost').then((m) => m.GrammarCost),
  },
  {
    id: 'mask-overlap',
    lesson: '07-09-what-grammars-cost',
    load: () => import('./grammar-cost/MaskOverlap').then((m) => m.MaskOverlap),
  },
  {
    id: 'chunk-size-tradeoff',
    lesson: '07-10-long-context-prefill',
    load: () => import('./long-prefill/ChunkSizeTradeoff').then((m) => m.ChunkSizeTradeoff),
  },
  {
    id: 'chunked-prefill-timeline',
    lesson: '07-10-long-context-prefill',
    load: () => import('./long-prefill/ChunkedPrefillTimeline').then((m) => m.ChunkedPrefillTimeline),
  },
  {
    id: 'hit-rate-vs-kernel',
    lesson: '07-10-long-context-prefill',
    load: () => import('./long-prefill/HitRateVsKernel').then((m) => m.HitRateVsKernel),
  },
  {
    id: 'edit-the-prompt',
    lesson: '07-11-context-compaction',
    load: () => import('./context-compaction/EditCache').then((m) => m.EditCache),
  },
  {
    id: 'compaction-payback',
    lesson: '07-11-context-compaction',
    load: () => import('./context-compaction/Payback').then((m) => m.Payback),
  },
  {
    id: 'cost-levers',
    lesson: '07-12-agents-per-megawatt',
    load: () => import('./agents-per-mw/LeverGrid').then((m) => m.LeverGrid),
  },
  {
    id: 'slo-sweep',
    lesson: '07-12-agents-per-megawatt',
    load: () => import('./agents-per-mw/SloSweep').then((m) => m.SloSweep),
  },
];

export function widgetById(id: string): WidgetEntry | undefined {
  return WIDGETS.find((w) => w.id === id);
}
