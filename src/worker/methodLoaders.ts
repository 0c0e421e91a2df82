/**
 * The worker's methods, loaded group by group on first use: a lesson's worker fetches and parses only the models
 * its widgets call (07.04 never loads the fleet simulator's routers, 07.08 never the fleet), so less JS stands
 * between a lesson's first paint and its first result. methods.ts stays the one static list (types, Node tests);
 * tests/method-loaders.test.ts checks that these groups name exactly its methods, each in the module that has it.
 */
import type { MethodName, Methods } from './methods';

type Group = Partial<Methods>;

export const METHOD_GROUPS: readonly { names: readonly MethodName[]; load: () => Promise<Group> }[] = [
  {
    names: ['kvFootprint', 'kvFootprintSweep', 'selfTest', 'catalogSummary'],
    load: () => import('./basicMethods').then((m) => m.basicMethods),
  },
  {
    names: ['agentTrajectory', 'workloadShape', 'workloadFigures', 'traceShape'],
    load: () => import('./workloadMethods').then((m) => m.workloadMethods),
  },
  {
    names: ['routerAnimation', 'routerSweep', 'routerSpread', 'routerSummaries'],
    load: () => import('./routerMethods').then((m) => m.routerMethods),
  },
  { names: ['runFleet'], load: () => import('./fleetMethods').then((m) => m.fleetMethods) },
  {
    names: ['affinityReplay', 'affinitySweep', 'coldTurnCost', 'traceSessions'],
    load: () => import('./affinityMethods').then((m) => m.affinityMethods),
  },
  {
    names: ['recordedTrajectory'],
    load: () => import('./recordedTrajectoryMethods').then((m) => m.recordedTrajectoryMethods),
  },
  {
    names: ['reloadVsRecompute', 'minBandwidthByModel', 'offloadFigures'],
    load: () => import('./offloadMethods').then((m) => m.offloadMethods),
  },
  {
    names: ['toolLatency', 'pauseArena', 'pauseHierarchyRun'],
    load: () => import('./pauseMethods').then((m) => m.pauseMethods),
  },
  {
    names: ['kvHierarchySummary', 'memoryLadder', 'contextsPerModel', 'hierarchyFigures', 'kvHierarchyRun'],
    load: () => import('./hierarchyMethods').then((m) => m.hierarchyMethods),
  },
  {
    names: ['prefillTimelineRun', 'chunkTradeoff', 'hitRateVsKernel', 'prefillFigures'],
    load: () => import('./prefillMethods').then((m) => m.prefillMethods),
  },
  {
    names: ['prefillScenarios'],
    load: () => import('./prefillScenarioMethods').then((m) => m.prefillScenarioMethods),
  },
  {
    names: ['prefillDisagg'],
    load: () => import('./prefillDisaggMethods').then((m) => m.prefillDisaggMethods),
  },
  {
    names: ['sloSweep', 'leverGrid', 'disaggLever'],
    load: () => import('./economicsMethods').then((m) => m.economicsMethods),
  },
  {
    names: ['toolSchemaTax', 'toolLayouts', 'encodeText'],
    load: () => import('./schemaMethods').then((m) => m.schemaMethods),
  },
  {
    names: ['grammarMaskTrace', 'grammarMaskLogits', 'grammarAskNicely', 'grammarCostSweep'],
    load: () => import('./grammarMethods').then((m) => m.grammarMethods),
  },
  {
    names: ['compactionEdit', 'compactionPayback'],
    load: () => import('./compactionMethods').then((m) => m.compactionMethods),
  },
];

const byName = new Map<string, () => Promise<Group>>();
for (const g of METHOD_GROUPS) for (const n of g.names) byName.set(n, g.load);

/** The method of that name, its group loaded on first use (the module cache keeps it), or undefined. */
export async function loadMethod(name: string): Promise<Methods[MethodName] | undefined> {
  const load = byName.get(name);
  if (!load) return undefined;
  const group = await load();
  return group[name as MethodName];
}
