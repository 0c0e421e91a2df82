/** Small scenario builders shared by the fleet tests. */
import type { Scenario } from '../src/sim/engine/fleet/scenario';
import type { SharedPrefixWorkload } from '../src/sim/engine/fleet/sharedPrefix';
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

/** 60 requests/s of 4k-token prompts at one 8B replica: far past what it can prefill. */
export function overloaded(over: Partial<Scenario> = {}): Scenario {
  const w: SharedPrefixWorkload = {
    kind: 'shared-prefix',
    groups: 40,
    promptsPerGroup: 5,
    systemTokens: 2000,
    questionTokens: 2000,
    outputTokens: 50,
    stages: [{ rate: 60, durationS: 20 }],
  };
  return scenario({ durationS: 20, workload: w, ...over });
}
