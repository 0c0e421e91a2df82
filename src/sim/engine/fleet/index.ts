/**
 * Discrete-event simulation of an agent-serving fleet. See docs/scenarios.md for the scenario format.
 *
 *   const { metrics, series, requests } = await runScenario(scenario, { onFrame, checkpoint });
 */
export {
  runScenario,
  runScenarioSync,
  type FleetResult,
  type FleetMetrics,
  type RunOptions,
  type RequestTable,
} from './run';
export {
  validateScenario,
  resolveScenario,
  ScenarioError,
  type Scenario,
  type ValidationError,
  type ToolPausePolicy,
} from './scenario';
export { type FleetFrame, transferables, frameToJson, TIERS, POOL_REPLICA } from './frames';
export { EVENT_PRIORITY, EventQueue, type EventKind } from './events';
export { ROUTER_KINDS, ROUTE_REASONS, createRouter, type Router, type RouterConfig } from './router';
export { TOOL_LATENCY_PRESETS, GRAMMAR_COMPILE_PRESETS, CHAT_THINK_TIME, sample, type Dist } from './dist';
export { WorkloadGenerator, type AgentClass, type ChatClass, type SessionClass } from './workload';
export { FleetSim } from './engine';
