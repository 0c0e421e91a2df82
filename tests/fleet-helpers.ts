/** Small scenario builders shared by the fleet tests. */
import type { Scenario } from '../src/sim/engine/fleet/scenario';
import type { AgentClass, ChatClass } from '../src/sim/engine/fleet/workload';

export const c = (value: number) => ({ kind: 'constant' as const, value });

export function agentClass(over: Partial<AgentClass> = {}): AgentClass {
  return {
    kind: 'agent',
    name: 'agent',
    systemTokens: c(1000),
    toolSchemaTokens: c(1000),
    taskTokens: c(200),
    turns: c(4),
    outputTokens: c(100),
    toolResultTokens: c(300),
    toolLatency: c(1),
    ...over,
  };
}

export function chatClass(over: Partial<ChatClass> = {}): ChatClass {
  return {
    kind: 'chat',
    name: 'chat',
    systemTokens: c(500),
    userTokens: c(100),
    outputTokens: c(200),
    turns: c(3),
    thinkTime: c(10),
    ...over,
  };
}

export function scenario(over: Partial<Scenario> = {}): Scenario {
  return {
    name: 'test',
    seed: 1,
    durationS: 100,
    model: 'llama-3.1-8b',
    hardware: { accelerator: 'h100-sxm' },
    replicas: 1,
    router: { kind: 'round-robin' },
    kv: { blockSize: 16 },
    workload: { arrival: { kind: 'poisson', sessionsPerS: 1 }, sessions: 1, classes: [agentClass()] },
    ...over,
  };
}
