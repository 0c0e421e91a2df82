/**
 * Fuzzing the parsers a learner feeds: whatever the input, the scenario validator returns errors (never throws),
 * and the trace readers either read the file or throw a TraceError naming a line — nothing else, no hang.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { readTraceTable } from '../src/sim/engine/trace/table';
import { TraceError } from '../src/sim/engine/trace/errors';

const SCENARIO = JSON.parse(readFileSync('scenarios/pause/hold.json', 'utf8')) as Record<string, unknown>;

/** A valid scenario with one field somewhere replaced by an arbitrary JSON value. */
function mutate(base: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0 || typeof base !== 'object' || base === null) return value;
  const copy: Record<string, unknown> = Array.isArray(base) ? ([...base] as never) : { ...base };
  const [head, ...rest] = path;
  copy[head] = mutate((base as Record<string, unknown>)[head], rest, value);
  return copy;
}

function paths(o: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (typeof o !== 'object' || o === null) return out;
  for (const [k, v] of Object.entries(o)) {
    out.push([...prefix, k]);
    paths(v, [...prefix, k], out);
  }
  return out;
}

const ALL_PATHS = paths(SCENARIO);
const anyJson = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(1e308, -1, 0, 1e12, 2 ** 53, -0, '', 'NaN', null, [], {}),
);

describe('scenario validator under fuzzing', () => {
  it('never throws on arbitrary JSON, and always explains a refusal', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        const errors = validateScenario(input);
        return errors.every((e) => typeof e.message === 'string' && e.message.length > 0);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws when one field of a valid scenario holds any value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_PATHS), anyJson, (path, value) => {
        const errors = validateScenario(mutate(SCENARIO, path, value));
        return Array.isArray(errors) && errors.every((e) => e.message.length > 0);
      }),
      { numRuns: 600 },
    );
  });

  it('accepts the unmutated scenario', () => {
    expect(validateScenario(SCENARIO)).toEqual([]);
  });
});

const LINE = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({
      timestamp: fc.oneof(fc.nat(), fc.double(), fc.constant(1e308)),
      input_length: fc.oneof(fc.nat({ max: 100_000 }), fc.integer(), fc.constant('x')),
      output_length: fc.oneof(fc.nat({ max: 2000 }), fc.constant(-1)),
      hash_ids: fc.oneof(fc.array(fc.nat({ max: 1000 }), { maxLength: 40 }), fc.constant('nope')),
    })
    .map((r) => JSON.stringify(r)),
);

describe('trace readers under fuzzing', () => {
  for (const format of ['auto', 'mooncake', 'native'] as const)
    for (const onError of ['skip', 'stop'] as const)
      it(`${format}, on error ${onError}: reads or throws a TraceError with a line number`, () => {
        fc.assert(
          fc.property(fc.array(LINE, { maxLength: 25 }), (lines) => {
            const text = lines.join('\n');
            try {
              const r = readTraceTable(text, { format, onError });
              return r !== undefined;
            } catch (e) {
              return e instanceof TraceError && Number.isInteger(e.line) && e.reason.length > 0;
            }
          }),
          { numRuns: 200 },
        );
      });
});

describe('scenario scale limits (checked before a run allocates anything)', () => {
  const withClass = (patch: Record<string, unknown>, sessions?: number) => {
    const sc = JSON.parse(JSON.stringify(SCENARIO)) as {
      workload: { sessions: number; classes: Record<string, unknown>[] };
    };
    Object.assign(sc.workload.classes[0], patch);
    if (sessions !== undefined) sc.workload.sessions = sessions;
    return sc;
  };
  it('refuses a 10¹²-token segment with a message naming the field', () => {
    const errors = validateScenario(withClass({ taskTokens: { kind: 'constant', value: 1e12 } }));
    expect(errors.map((e) => e.path)).toContain('workload.classes[0].taskTokens');
    expect(errors[0].message).toMatch(/at most 10,000,000 tokens per segment/);
  });
  it('refuses a run of billions of requests, naming sessions and turns', () => {
    const errors = validateScenario(withClass({ turns: { kind: 'constant', value: 400 } }, 16_000_000));
    expect(errors.map((e) => e.path)).toEqual(['workload.sessions']);
    expect(errors[0].message).toMatch(/lower sessions or turns/);
  });
  it('leaves ordinary scenarios alone', () => {
    expect(validateScenario(withClass({}, 1000))).toEqual([]);
  });
});
