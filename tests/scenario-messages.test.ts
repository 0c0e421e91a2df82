/** Refusals a widget can show are in the reader's words: what does not fit, and what to change. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolveScenario, ScenarioError } from '../src/sim/engine/fleet/scenario';

describe('scenario refusals', () => {
  it('weights that leave no room for KV name the model, the GPUs and the way out', () => {
    const sc = JSON.parse(readFileSync('scenarios/pause/hold.json', 'utf8'));
    sc.model = 'llama-3.1-70b';
    delete sc.kv.hbmBlocks;
    sc.hardware = { ...sc.hardware, accelerator: 'h100-sxm', tp: 1 };
    let err: unknown;
    try {
      resolveScenario(sc);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const message = (err as ScenarioError).errors[0].message;
    expect(message).toMatch(/Llama 3\.1 70B's weights \(\d+\.\d GB\)/);
    expect(message).toMatch(/use more GPUs per replica or a smaller model/);
  });
});

describe('one validator for every part of a scenario', () => {
  it('reports the problems of every part in one pass, each at its path and in one message per field', async () => {
    const { validateScenario } = await import('../src/sim/engine/fleet/scenario');
    const sc = JSON.parse(readFileSync('scenarios/validation/llmd-73-capacity-load.json', 'utf8'));
    sc.clients = { maxInFlight: 2.5, extra: 1 };
    sc.gateway = { maxInFlight: 'nginx' };
    sc.requestOverhead = { fixedS: -1 };
    sc.workload.groups = 0;
    sc.workload.stages = [{ rate: 1, durationS: 10, burst: true }];
    sc.disaggregation = { prefillReplicas: 0.5, decodeReplicas: 2, mode: 'sideways' };
    const errs = validateScenario(sc);
    const byPath = new Map(errs.map((e) => [e.path, e.message]));
    expect(byPath.get('clients.maxInFlight')).toBe('must be a whole number ≥ 1 (got 2.5)');
    expect(byPath.get('clients.extra')).toMatch(/^unknown field \(known: maxInFlight, timeoutS\)$/);
    expect(byPath.get('gateway.maxInFlight')).toMatch(/or one of "envoy-default" \(got "nginx"\)$/);
    expect(byPath.get('requestOverhead.fixedS')).toBe('must be seconds between 0 and 60 (got -1)');
    expect(byPath.get('workload.groups')).toBe('must be a whole number from 1 to 100000 (got 0)');
    expect(byPath.get('workload.stages[0].burst')).toMatch(/^unknown field/);
    expect(byPath.get('disaggregation.prefillReplicas')).toBe('must be a whole number ≥ 1 (got 0.5)');
    expect(byPath.get('disaggregation.mode')).toMatch(/^must be one of .* \(got "sideways"\)$/);
    // One message per field: a value wrong in two ways (not whole, below the minimum) is refused once.
    expect(errs.filter((e) => e.path === 'disaggregation.prefillReplicas')).toHaveLength(1);
  });

  it('checks a distribution with the same validator: the field, and what it got', async () => {
    const { validateScenario } = await import('../src/sim/engine/fleet/scenario');
    const sc = JSON.parse(readFileSync('scenarios/bench-16x1000-agents.json', 'utf8'));
    sc.workload.classes[0].outputTokens = { kind: 'lognormal', median: -1, sigma: 'wide' };
    const errs = validateScenario(sc);
    expect(errs).toEqual([
      { path: 'workload.classes[0].outputTokens.median', message: 'must be > 0 (got -1)' },
      { path: 'workload.classes[0].outputTokens.sigma', message: 'must be a finite number (got "wide")' },
    ]);
  });

  it("a session class's fields are its kind's: the generator's distributions and the class's own others", async () => {
    const { validateScenario } = await import('../src/sim/engine/fleet/scenario');
    const { CLASS_DISTS } = await import('../src/sim/engine/fleet/workload');
    const sc = JSON.parse(readFileSync('scenarios/bench-16x1000-agents.json', 'utf8'));
    const agent = sc.workload.classes[0];
    agent.thinkTime = { kind: 'constant', value: 1 }; // a chat class's field
    const chat = {
      kind: 'chat',
      name: 'chat',
      ...Object.fromEntries(CLASS_DISTS.chat.required.map((k) => [k, { kind: 'constant', value: 1 }])),
    };
    sc.workload.classes.push({ ...chat, toolLatency: agent.toolLatency }); // an agent class's field
    const errs = validateScenario(sc);
    const known = (path: string) => {
      const m = /^unknown field \(known: (.*)\)$/.exec(errs.find((e) => e.path === path)?.message ?? '');
      return m ? m[1].split(', ') : [];
    };
    const agentKnown = known('workload.classes[0].thinkTime');
    for (const k of [...CLASS_DISTS.agent.required, ...CLASS_DISTS.agent.optional, 'toolLatency', 'apps'])
      expect(agentKnown).toContain(k);
    const chatKnown = known('workload.classes[1].toolLatency');
    for (const k of [...CLASS_DISTS.chat.required, 'structuredOutput']) expect(chatKnown).toContain(k);
    expect(chatKnown).not.toContain('toolSchemaTokens');
    expect(errs).toHaveLength(2);
  });
});
