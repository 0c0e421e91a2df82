/**
 * 07.08's limits against the real grammar engine (XGrammar WASM, in Node; see lesson-07-08-engine.test.ts):
 * the depth limit admits what the engine compiles, a long document is refused by its tokens before compiling,
 * a trace streams its progress and stops at a checkpoint when cancelled, and a crash of the engine is said in
 * words and never followed by another call into the broken engine. The crash is the last test: it breaks this
 * file's engine on purpose (each test file has its own).
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as EngineModule from '../src/worker/grammarEngine';
import { MAX_DOCUMENT_TOKENS, MAX_SCHEMA_DEPTH } from '../src/sim/lessons/grammar/limits';
import { JobCancelled } from '../src/worker/job';
import type { JobProgress } from '../src/worker/progress';

let engine: typeof EngineModule;

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const g = globalThis as Record<string, unknown>;
  g.require ??= require;
  g.__filename ??= require.resolve('@mlc-ai/web-xgrammar');
  engine = await import('../src/worker/grammarEngine');
}, 60_000);

function nestedObjects(levels: number): string {
  return (
    '{"type":"object","properties":{"a":'.repeat(levels - 1) + '{"type":"integer"}' + '}}'.repeat(levels - 1)
  );
}
const ARRAY = '{"type":"array","items":{"type":"string"}}';

describe('07.08 limits with the real engine', () => {
  it('a schema at the depth limit compiles and traces', async () => {
    const doc = '{"a":'.repeat(MAX_SCHEMA_DEPTH - 1) + '1' + '}'.repeat(MAX_SCHEMA_DEPTH - 1);
    const r = await engine.traceDocument(nestedObjects(MAX_SCHEMA_DEPTH), doc);
    expect(r.complete).toBe(true);
  }, 120_000);

  it('a document over the token limit is refused before compiling, on the document', async () => {
    const phases: string[] = [];
    const doc = JSON.stringify(Array.from({ length: 700 }, (_, i) => String.fromCharCode(97 + (i % 26))));
    const run = engine.traceDocument(ARRAY, doc, 12, false, {
      maxTokens: MAX_DOCUMENT_TOKENS,
      tooManyTokens: (n) => `too many: ${n}`,
      progress: async (p) => void phases.push(p.phase),
    });
    await expect(run).rejects.toMatchObject({ name: 'SchemaError', field: 'document' });
    await expect(run).rejects.toThrow(/^too many: \d+/);
    expect(phases).toEqual([]);
  }, 60_000);

  it('streams its progress, and a cancelled trace stops at its checkpoint; the engine goes on', async () => {
    const doc = JSON.stringify(Array.from({ length: 30 }, (_, i) => `item ${i}`));
    let checks = 0;
    const cancelled = engine.traceDocument(ARRAY, doc, 12, false, {
      checkpoint: async () => {
        if (++checks === 3) throw new JobCancelled();
      },
    });
    await expect(cancelled).rejects.toBeInstanceOf(JobCancelled);
    expect(checks).toBe(3);
    const frames: EngineModule.TraceProgress[] = [];
    const r = await engine.traceDocument(ARRAY, doc, 12, false, {
      progress: async (p) => void frames.push(p),
    });
    expect(r.complete).toBe(true);
    expect(frames[0]).toEqual({ phase: 'compiling' });
    const steps = frames.flatMap((f) => (f.phase === 'masking' ? [f.step] : []));
    expect(steps.length).toBeGreaterThan(3);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(frames.every((f) => f.phase === 'compiling' || f.steps === r.steps.length)).toBe(true);
  }, 60_000);

  it('the worker method: cancelled after N checks it rejects at check N; never cancelled it traces with frames', async () => {
    const { grammarMethods } = await import('../src/worker/grammarMethods');
    const req = { schema: ARRAY, document: JSON.stringify(Array.from({ length: 40 }, (_, i) => `row ${i}`)) };
    let checks = 0;
    const cancelled = {
      isCancelled: () => false,
      checkpoint: async () => {
        if (++checks === 2) throw new JobCancelled();
      },
      emit: async () => {},
    };
    await expect(grammarMethods.grammarMaskTrace(req, cancelled)).rejects.toBeInstanceOf(JobCancelled);
    expect(checks).toBe(2);
    const frames: JobProgress[] = [];
    const r = await grammarMethods.grammarMaskTrace(req, {
      isCancelled: () => false,
      checkpoint: async () => {},
      emit: async (f) => void frames.push(f),
    });
    expect(r.ok && r.trace.complete).toBe(true);
    expect(frames.length).toBeGreaterThan(checks);
    // As the page shows them: compiling (step 1 of 2), then masking step i of the trace's steps, in order.
    expect(frames[0]).toMatchObject({ label: 'Compiling the schema', stage: 1, stages: 2 });
    const masking = frames.slice(1);
    expect(masking.length).toBeGreaterThan(0);
    expect(new Set(masking.map((f) => f.total)).size).toBe(1);
    expect(masking.every((f) => f.stage === 2 && f.label === 'Masking')).toBe(true);
    expect(masking.every((f, i) => i === 0 || f.done > masking[i - 1].done)).toBe(true);
  }, 60_000);

  it('an engine crash is said in words, and no later call goes into the broken engine', async () => {
    // 80 nested arrays: past the engine's stack (measured to fail between 60 and 70), under no limit here.
    const deep = '{"type":"array","items":'.repeat(80) + '{"type":"integer"}' + '}'.repeat(80);
    await expect(engine.traceDocument(deep, '[]')).rejects.toThrow(engine.ENGINE_CRASHED);
    expect(engine.engineCrashed()).toBe(true);
    await expect(engine.traceDocument('{"type":"boolean"}', 'false')).rejects.toThrow(engine.ENGINE_CRASHED);
  }, 60_000);
});
