/**
 * Every computation a widget can ask of the worker, by name. Each takes plain, structured-cloneable
 * arguments (ids rather than catalog objects) and returns plain data. Pure: importable in Node tests.
 */
import type { JobContext } from './job';
import { basicMethods } from './basicMethods';
import { workloadMethods } from './workloadMethods';
import { routerMethods } from './routerMethods';
import { fleetMethods } from './fleetMethods';
import { affinityMethods } from './affinityMethods';
import { recordedTrajectoryMethods } from './recordedTrajectoryMethods';
import { pauseMethods } from './pauseMethods';
import { offloadMethods } from './offloadMethods';
import { prefillMethods } from './prefillMethods';
import { prefillScenarioMethods } from './prefillScenarioMethods';
import { prefillDisaggMethods } from './prefillDisaggMethods';
import { hierarchyMethods } from './hierarchyMethods';
import { economicsMethods } from './economicsMethods';
import { schemaMethods } from './schemaMethods';
import { compactionMethods } from './compactionMethods';
import { grammarMethods } from './grammarMethods';

export { BadRequest } from './badRequest';
export { type FootprintRequest, type FootprintResponse } from './basicMethods';

export const methods = {
  ...basicMethods,
  ...workloadMethods,
  ...routerMethods,
  ...fleetMethods,
  ...affinityMethods,
  ...recordedTrajectoryMethods,
  ...offloadMethods,
  ...pauseMethods,
  ...hierarchyMethods,
  ...prefillMethods,
  ...prefillScenarioMethods,
  ...prefillDisaggMethods,
  ...economicsMethods,
  ...schemaMethods,
  ...grammarMethods,
  ...compactionMethods,
};

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type MethodArgs<M extends MethodName> = Parameters<Methods[M]>[0];
export type MethodResult<M extends MethodName> = Awaited<ReturnType<Methods[M]>>;
export type MethodFrame<M extends MethodName> =
  Parameters<Methods[M]> extends [unknown, JobContext<infer F>] ? F : never;
