/** Lesson 07.01 (the agent workload): its formulas and models against hand-computed values. */
import { describe, expect, it } from 'vitest';
import { LESSON_WORKLOAD } from '../src/widgets/traffic-shape/schema';
import { TOOL_LATENCY_PRESETS } from '../src/sim/engine/fleet/dist';
import { cdf, mean, quantile, timeShare } from '../src/sim/lessons/toolLatency';
import { CODEX_SWEBENCH_PRO } from '../src/sim/engine/catalog/traces';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  generateWorkload,
  sampleTraceText,
  toMooncakeJsonl,
  workloadTable,
  type GeneratedWorkload,
} from '../src/sim/lessons/agentWorkload';
import { assumptionFigures, medianOf, prefillShareOfGpuTime } from '../src/sim/lessons/agentWorkloadFigures';
import {
  commonPrefixTokens,
  generateTrajectory,
  lessonHardware,
  totalsOf,
  type TrajectoryTurn,
} from '../src/sim/lessons/agentSession';
import { idealHitsPerRequest, sniffFormat, thin, trafficShape } from '../src/sim/lessons/trafficShape';
import {
  idealHitRatio,
  mooncakeTable,
  nativeTable,
  readTraceTable,
  TraceError,
} from '../src/sim/engine/trace';
import {
  MOONCAKE_CONVERSATION,
  MOONCAKE_CONVERSATION_IDEAL_HIT_RATIO,
  MOONCAKE_TOOL_AGENT,
  publishedIoRatio,
} from '../src/sim/engine/catalog/traces';
import { decodeStepTime, prefillTime } from '../src/sim/engine/cost';
import { EXERCISE_TRACE } from '../src/widgets/traffic-shape/exerciseTrace';
import { methods } from '../src/worker/methods';
import { directContext } from '../src/worker/job';
import { ENGINE_BLOCK_SIZE } from '../src/sim/engine/blocks';
import { MOONCAKE_BLOCK_SIZE } from '../src/sim/engine/trace/mooncake';

const read = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8');

describe('the reused prefix: the prompt’s common prefix with the previous context', () => {
  it('counts whole equal segments, then the common part of the first differing one', () => {
    const prev = [
      { id: 'sys', tokens: 100 },
      { id: 'tools', tokens: 50 },
      { id: 'out0', tokens: 20 },
    ];
    expect(commonPrefixTokens([...prev, { id: 'res0', tokens: 300 }], prev)).toBe(170);
    // A re-serialised tool block breaks the prefix at the tool block: only the system prompt is reused.
    expect(
      commonPrefixTokens(
        [
          { id: 'sys', tokens: 100 },
          { id: 'tools-b', tokens: 50 },
        ],
        prev,
      ),
    ).toBe(100);
    // A timestamp at the very top: nothing is reused.
    expect(commonPrefixTokens([{ id: 'ts', tokens: 5 }, ...prev], prev)).toBe(0);
    // Same content, different length: the shorter is the common part.
    expect(commonPrefixTokens([{ id: 'sys', tokens: 60 }], prev)).toBe(60);
    expect(commonPrefixTokens([], prev)).toBe(0);
  });
});

describe('trajectory totals', () => {
  const turn = (k: number, prompt: number, reused: number, out: number, gap: number): TrajectoryTurn => ({
    turn: k,
    promptTokens: prompt,
    reusedTokens: reused,
    newTokens: prompt - reused,
    outputTokens: out,
    prefixShare: prompt ? reused / prompt : 0,
    startS: 0,
    prefillS: 0.5,
    decodeS: 1,
    gapKind: gap ? 'tool' : 'end',
    gapS: gap,
  });

  it('ρ = ΣI/ΣO and s = Σ_{k≥1} r_k / Σ_{k≥1} I_k, by hand', () => {
    // Turn 0: 8,000 new; turn 1: 8,000 + 200 out + 800 result = 9,000 of which 8,200 reused; turn 2 likewise.
    const t = totalsOf([
      turn(0, 8000, 0, 200, 2),
      turn(1, 9000, 8200, 100, 3),
      turn(2, 10_000, 9100, 300, 0),
    ]);
    expect(t.inputTokens).toBe(27_000);
    expect(t.outputTokens).toBe(600);
    expect(t.ioRatio).toBe(45);
    expect(t.prefixShare).toBeCloseTo(17_300 / 19_000, 12);
    expect(t.newTokens).toBe(27_000 - 17_300);
    expect(t.gapS).toBe(5);
    expect(t.modelS).toBe(4.5);
  });

  it('a single-turn session has no prefix share', () => {
    expect(totalsOf([turn(0, 500, 0, 250, 0)]).prefixShare).toBeNull();
  });
});

describe('generated trajectories', () => {
  it('an agent turn re-sends the previous context: r_k = I_{k−1} + O_{k−1} and n_k is the tool result', () => {
    const t = generateTrajectory('agent', 17);
    expect(t.turns.length).toBeGreaterThan(10);
    for (let k = 1; k < t.turns.length; k++) {
      const prev = t.turns[k - 1];
      expect(t.turns[k].reusedTokens).toBe(prev.promptTokens + prev.outputTokens);
      expect(t.turns[k].promptTokens).toBeGreaterThan(t.turns[k].reusedTokens);
      expect(t.turns[k].startS).toBeCloseTo(prev.startS + prev.prefillS + prev.decodeS + prev.gapS, 9);
    }
    expect(t.turns[0].reusedTokens).toBe(0);
  });

  it('is deterministic per seed, and the default seed shows the lesson’s contrast', () => {
    expect(generateTrajectory('agent', 17)).toEqual(generateTrajectory('agent', 17));
    const a = generateTrajectory('agent', 17).totals;
    const c = generateTrajectory('chat', 17).totals;
    expect(a.ioRatio / c.ioRatio).toBeGreaterThan(10);
    expect(a.prefixShare!).toBeGreaterThan(0.9);
    expect(c.turns).toBeGreaterThanOrEqual(2);
  });

  it('served-alone timing is prefill of the new tokens on the cached ones plus O steps at the mid context', () => {
    const t = generateTrajectory('agent', 17);
    const { model, hw } = lessonHardware();
    const k = t.turns[3];
    expect(k.prefillS).toBeCloseTo(prefillTime(model, hw, k.newTokens, k.reusedTokens), 12);
    expect(k.decodeS).toBeCloseTo(
      k.outputTokens * decodeStepTime(model, hw, 1, k.promptTokens + (k.outputTokens + 1) / 2),
      12,
    );
    // Batch-1 decode of 70B BF16 on 8 × H100: ≈ 6.5 ms to stream the weights, 6.0 ms of 160 latency-bound
    // all-reduces (37.7 µs each) and 2.5 ms of per-iteration overhead ≈ 15.0 ms a step: 100 tokens ≈ 1.5 s.
    expect(decodeStepTime(model, hw, 1, 1) * 100).toBeGreaterThan(1.45);
    expect(decodeStepTime(model, hw, 1, 1) * 100).toBeLessThan(1.55);
  });
});

describe('the exercise trace, replayed by hand', () => {
  // Blocks of 512. r1 [0,1,2,3]: cold. r2 [0..4]: hits 0–3 = 2,048. r3 [0,5,6]: hits 0 = 512.
  // r4 [0..4,7]: hits 0–4 = 2,560. Σ hits = 5,120 of Σ input 9,216 = 55.6%. ρ = 9,216 / 540.
  const { table } = mooncakeTable(EXERCISE_TRACE);

  it('per-request ideal hits', () => {
    expect(Array.from(idealHitsPerRequest(table).tokens)).toEqual([0, 2048, 512, 2560]);
    expect(Array.from(idealHitsPerRequest(table).blocks)).toEqual([0, 4, 1, 5]);
  });

  it('ideal hit ratio and input:output ratio', () => {
    const s = trafficShape(table);
    expect(s.idealHitRatio.tokens).toBeCloseTo(5120 / 9216, 12);
    expect(s.idealHitRatio.blocks).toBeCloseTo(10 / 18, 12);
    expect(s.ioRatio).toBeCloseTo(9216 / 540, 12);
    expect(s.requests).toBe(4);
    expect(s.sessions).toBeNull();
    expect(s.durationS).toBeCloseTo(2.3, 12);
    expect(s.samples.hitShare).toEqual([0, 2048 / 2560, 512 / 1536, 2560 / 3072]);
  });

  it('the worker method gives the same answer', async () => {
    const r = await methods.traceShape({ text: EXERCISE_TRACE, name: 'exercise' }, directContext());
    expect(r.shape.idealHitRatio.tokens).toBeCloseTo(0.5556, 4);
    expect(r.errorCount).toBe(0);
    expect(r.format).toBe('mooncake');
  });
});

describe('per-request hits agree with the trace statistics', () => {
  it('Σ per-request hits / Σ input = idealHitRatio on the fixtures', () => {
    for (const t of [
      mooncakeTable(read('./fixtures/mooncake-tiny.jsonl')).table,
      nativeTable(read('./fixtures/native-tiny.jsonl')).table,
    ]) {
      const hits = idealHitsPerRequest(t).tokens;
      let h = 0;
      let n = 0;
      for (let i = 0; i < t.count; i++) {
        h += hits[i];
        n += t.inputTokens[i];
      }
      expect(h / n).toBeCloseTo(idealHitRatio(t).tokens, 12);
      expect(trafficShape(t).idealHitRatio).toEqual(idealHitRatio(t));
    }
  });
});

describe('a trace with a malformed line', () => {
  const lines = EXERCISE_TRACE.split('\n');
  const bad = [
    lines[0],
    lines[1],
    '{"timestamp": 900, "input_length": "many", "output_length": 5, "hash_ids": [0]}',
    lines[2],
    'not json',
    lines[3],
  ].join('\n');

  it('is read with the bad lines skipped and reported by number', async () => {
    const r = await methods.traceShape({ text: bad, name: 'bad.jsonl' }, directContext());
    expect(r.errorCount).toBe(2);
    expect(r.errors.map((e) => e.line)).toEqual([3, 5]);
    expect(r.shape.requests).toBe(4);
    expect(r.shape.idealHitRatio.tokens).toBeCloseTo(5120 / 9216, 12);
  });

  it('a Blob is read in the worker like text', async () => {
    const r = await methods.traceShape({ blob: new Blob([bad]), name: 'bad.jsonl' }, directContext());
    expect(r.errors.map((e) => e.line)).toEqual([3, 5]);
    expect(r.bytes).toBe(new Blob([bad]).size);
  });

  it('a file that is not a trace is rejected with a reason, not a crash', async () => {
    await expect(
      methods.traceShape({ text: 'hello\nworld\n', name: 'notes.txt' }, directContext()),
    ).rejects.toThrow(/notes\.txt, line 1: not a Mooncake trace/);
    await expect(methods.traceShape({ text: '\n\n', name: 'empty.jsonl' }, directContext())).rejects.toThrow(
      /empty/,
    );
  });

  it('a file over the size cap is rejected before it is read', async () => {
    const huge = {
      size: 201 * 2 ** 20,
      text: () => Promise.reject(new Error('must not be read')),
    } as unknown as Blob;
    await expect(methods.traceShape({ blob: huge, name: 'huge.jsonl' }, directContext())).rejects.toThrow(
      /201 MiB.*200 MiB/,
    );
  });
});

describe('format sniffing', () => {
  it('skips unreadable lines before the first recognisable one', () => {
    expect(
      sniffFormat('garbage\n\n{"timestamp": 0, "input_length": 1, "output_length": 1, "hash_ids": [0]}'),
    ).toBe('mooncake');
    expect(sniffFormat('{"format": "sal-trace", "version": 1}\n')).toBe('native');
    expect(sniffFormat('oops\n{"session": "a", "t": 0, "input": [], "output": 1}')).toBe('native');
    expect(() => sniffFormat('\n\n{"a": 1}\n')).toThrow(TraceError);
    try {
      sniffFormat('\n\n{"a": 1}\n');
    } catch (e) {
      expect((e as TraceError).line).toBe(3);
    }
  });
});

describe('thin', () => {
  it('keeps every value up to the cap, else an even stride', () => {
    expect(thin([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(thin([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 5)).toEqual([0, 2, 4, 6, 8]);
  });
});

describe('generated workloads', () => {
  it('agent traffic has ρ an order of magnitude above chat, and a near-total prefix overlap', () => {
    const agent = trafficShape(workloadTable(generateWorkload({ mix: 'agent', sessions: 60, seed: 1 })));
    const chat = trafficShape(workloadTable(generateWorkload({ mix: 'chat', sessions: 60, seed: 1 })));
    expect(agent.ioRatio / chat.ioRatio).toBeGreaterThan(10);
    expect(agent.idealHitRatio.tokens).toBeGreaterThan(0.9);
    expect(chat.turns!.median).toBeLessThan(agent.turns!.median);
  });

  it('round-trips through the Mooncake format with the same statistics', () => {
    const t = workloadTable(generateWorkload({ mix: 'mix', sessions: 12, seed: 3, medianTurns: 8 }));
    const back = readTraceTable(toMooncakeJsonl(t), { format: 'mooncake' });
    expect(back.errorCount).toBe(0);
    const a = trafficShape(t);
    const b = trafficShape(back.table);
    expect(b.ioRatio).toBeCloseTo(a.ioRatio, 12);
    expect(b.idealHitRatio.tokens).toBeCloseTo(a.idealHitRatio.tokens, 12);
    expect(b.inputTokens).toEqual(a.inputTokens);
  });

  it('the shipped sample trace is what the generator writes', () => {
    expect(read('../public/traces/agent-mix.mooncake.jsonl')).toBe(sampleTraceText());
  });
});

describe('the figures behind the broken assumptions', () => {
  // Two sessions by hand: A has turns of prompt 1,000 (cold), 1,300 (1,100 reused) and 1,600 (1,400 reused);
  // B has one turn of 400. Gaps after A0, A1: 2 s and 4 s.
  const seg = (id: string, tokens: number) => ({ id, tokens });
  const w: GeneratedWorkload = {
    sessions: 2,
    turnsPerSession: [3, 1],
    kindOfSession: ['agent', 'agent'],
    requests: [
      {
        session: 0,
        kind: 'agent',
        turn: 0,
        arrivalS: 0,
        inputTokens: 1000,
        outputTokens: 100,
        reusedTokens: 0,
        segments: [seg('h', 1000)],
        gapS: 2,
      },
      {
        session: 1,
        kind: 'agent',
        turn: 0,
        arrivalS: 1,
        inputTokens: 400,
        outputTokens: 50,
        reusedTokens: 0,
        segments: [seg('b', 400)],
        gapS: 0,
      },
      {
        session: 0,
        kind: 'agent',
        turn: 1,
        arrivalS: 5,
        inputTokens: 1300,
        outputTokens: 100,
        reusedTokens: 1100,
        segments: [],
        gapS: 4,
      },
      {
        session: 0,
        kind: 'agent',
        turn: 2,
        arrivalS: 11,
        inputTokens: 1600,
        outputTokens: 50,
        reusedTokens: 1400,
        segments: [],
        gapS: 0,
      },
    ],
  };
  const f = assumptionFigures(w, 4);

  it('by hand', () => {
    expect(f.ioRatio).toBeCloseTo(4300 / 300, 12);
    expect(f.continuingShare).toBe(0.5);
    expect(f.prefixShare).toBeCloseTo(2500 / 2900, 12);
    expect(f.medianGapS).toBe(3);
    expect(f.medianInputTokens).toBe(1150);
    expect(f.medianNewTokens).toBe(300); // new: 1,000, 400, 200, 200 → (200 + 400) / 2
    expect(f.contextGrowth).toBe(1.6);
    expect(f.medianTurns).toBe(2);
  });

  it('prefill share of GPU time follows its formula, and reuse lowers it', () => {
    const { model, hw } = lessonHardware();
    let pre = 0;
    let dec = 0;
    for (const r of w.requests) {
      pre += prefillTime(model, hw, r.inputTokens, 0);
      dec +=
        (r.outputTokens * decodeStepTime(model, hw, 4, 4 * (r.inputTokens + (r.outputTokens + 1) / 2))) / 4;
    }
    expect(f.prefillShareNoReuse).toBeCloseTo(pre / (pre + dec), 12);
    expect(f.prefillShareReuse).toBeLessThan(f.prefillShareNoReuse);
    // A larger decode batch amortises the weights over more sequences: decode gets cheaper, prefill's share rises.
    expect(prefillShareOfGpuTime(w.requests, model, hw, 32, false)).toBeGreaterThan(
      prefillShareOfGpuTime(w.requests, model, hw, 1, false),
    );
    expect(() => prefillShareOfGpuTime(w.requests, model, hw, 0, false)).toThrow(RangeError);
  });

  it('median of an even count is the mean of the middle two', () => {
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
    expect(medianOf([])).toBeNaN();
  });
});

describe('published statistics', () => {
  it('ratios derive from Table 2', () => {
    expect(publishedIoRatio(MOONCAKE_CONVERSATION)).toBeCloseTo(12_035 / 343, 12);
    expect(publishedIoRatio(MOONCAKE_TOOL_AGENT)).toBeCloseTo(47.23, 2);
  });

  const CONVERSATION = fileURLToPath(
    new URL('../../shared/data/mooncake/conversation_trace.jsonl', import.meta.url),
  );
  it.skipIf(!existsSync(CONVERSATION))(
    'the released conversation trace reproduces Table 2’s averages',
    () => {
      const s = trafficShape(mooncakeTable(readFileSync(CONVERSATION, 'utf8')).table);
      expect(s.requests).toBe(MOONCAKE_CONVERSATION.requests);
      expect(Math.round(s.inputTokens.mean)).toBe(MOONCAKE_CONVERSATION.avgInputTokens);
      expect(Math.round(s.outputTokens.mean)).toBe(MOONCAKE_CONVERSATION.avgOutputTokens);
      expect(s.idealHitRatio.tokens).toBeCloseTo(MOONCAKE_CONVERSATION_IDEAL_HIT_RATIO, 4);
    },
  );
});

describe('worker memo', () => {
  it('the lesson figures and the widget share one run of the same workload', async () => {
    const a = await methods.workloadShape({ mix: 'agent', sessions: 20, medianTurns: 5, seed: 9 });
    const f = await methods.workloadFigures({ sessions: 20, medianTurns: 5, seed: 9 });
    expect(f.agent).toBe(a);
    expect(f.chat.figures.ioRatio).toBeLessThan(a.figures.ioRatio);
  });
});

describe('the prose’s chat against agents', () => {
  it('chat’s ρ is a few (input already outweighs output); agents’ is tens of times more, in the hundreds', async () => {
    const f = await methods.workloadFigures(LESSON_WORKLOAD);
    expect(f.chat.figures.ioRatio).toBeGreaterThan(1);
    expect(f.chat.figures.ioRatio).toBeLessThan(10);
    expect(f.agent.figures.ioRatio).toBeGreaterThan(100);
    expect(f.agent.figures.ioRatio / f.chat.figures.ioRatio).toBeGreaterThan(10);
  });
});

describe('the prose’s tool-latency and Codex-trace figures', () => {
  it('the coding mix: median a fraction of a second, mean tens of seconds, a few calls over a minute carry most time', () => {
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    expect(quantile(d, 0.5)).toBeLessThan(1);
    expect(mean(d)).toBeGreaterThan(10);
    expect(1 - cdf(d, 60)).toBeLessThan(0.05);
    expect(1 - timeShare(d, 60)).toBeGreaterThan(0.5);
  });
  it('Codex on SWE-bench Pro: 33 turns is the dataset card’s mean, 30 its median', () => {
    expect(CODEX_SWEBENCH_PRO.meanTurns).toBe(33);
    expect(CODEX_SWEBENCH_PRO.medianTurns).toBe(30);
    expect(CODEX_SWEBENCH_PRO.meanTurns).toBeGreaterThan(CODEX_SWEBENCH_PRO.medianTurns);
  });
});

describe('the prose’s qualitative claims, on the lesson’s own defaults', () => {
  it('the Remember: ρ past a hundred, an ideal cache over 90%, prefill most of the GPU time without reuse', async () => {
    const f = await methods.workloadFigures(LESSON_WORKLOAD);
    expect(f.agent.figures.ioRatio).toBeGreaterThan(100);
    expect(f.agent.shape.idealHitRatio.tokens).toBeGreaterThan(0.9);
    expect(f.agent.figures.prefillShareNoReuse).toBeGreaterThan(0.5);
    // "falls to … only if every turn finds its prefix"; for chat prefill is a small share even without a cache.
    expect(f.agent.figures.prefillShareReuse).toBeLessThan(f.agent.figures.prefillShareNoReuse);
    expect(f.chat.figures.prefillShareNoReuse).toBeLessThan(0.5);
    // "a few hundred tokens" of new input a turn (the median new input), against a whole prompt's worth cold.
    expect(f.agent.figures.medianNewTokens).toBeGreaterThan(100);
    expect(f.agent.figures.medianNewTokens).toBeLessThan(1000);
  });

  it('the next agent request comes usually within a second; chat’s waits for a human, far longer', async () => {
    const f = await methods.workloadFigures(LESSON_WORKLOAD);
    expect(f.agent.figures.medianGapS).toBeLessThan(1);
    expect(f.chat.figures.medianGapS).toBeGreaterThan(10 * f.agent.figures.medianGapS);
  });

  it('the default session is idle most of its wall time: the model works in short bursts', async () => {
    const { trajectorySchema } = await import('../src/widgets/trajectory-anatomy/schema');
    const t = await methods.agentTrajectory({
      seed: trajectorySchema.seed.default,
      toolLatency: trajectorySchema.toolLatency.default as never,
      medianTurns: trajectorySchema.medianTurns.default,
    });
    expect(t.agent.totals.modelS / t.agent.totals.wallS).toBeLessThan(0.5);
    expect(t.agent.totals.prefixShare!).toBeGreaterThan(0.9);
  });
});

describe('the ideal hit ratio is an upper bound for its block size only', () => {
  // The prose: 512-token blocks (Mooncake's, the widget's) recompute the shared tokens of the block in which a prompt
  // stops matching; vLLM's 16-token blocks and SGLang's per-token radix tree reuse them. Large for short chat prompts,
  // a sliver of an agent's long ones.
  const hAt = (w: GeneratedWorkload, blockSize: number) => idealHitRatio(workloadTable(w, blockSize)).tokens;

  it('the page’s chat figures are the worker’s workload shape at the finer block size', async () => {
    const chat = generateWorkload({ ...LESSON_WORKLOAD, mix: 'chat' });
    for (const blockSize of [MOONCAKE_BLOCK_SIZE, ENGINE_BLOCK_SIZE, 1]) {
      const r = await methods.workloadShape({ ...LESSON_WORKLOAD, mix: 'chat', blockSize }, directContext());
      expect(r.shape.blockSize).toBe(blockSize);
      expect(r.shape.idealHitRatio.tokens).toBeCloseTo(hAt(chat, blockSize), 12);
    }
    await expect(
      methods.workloadShape({ ...LESSON_WORKLOAD, mix: 'chat', blockSize: 0 }, directContext()),
    ).rejects.toThrow(/blockSize/);
  });

  it('chat: finer blocks match far more (≈ 56% → 74% at 16 tokens), token by token a little more still', () => {
    const chat = generateWorkload({ ...LESSON_WORKLOAD, mix: 'chat' });
    const [coarse, engine, token] = [MOONCAKE_BLOCK_SIZE, ENGINE_BLOCK_SIZE, 1].map((b) => hAt(chat, b));
    expect(engine - coarse).toBeGreaterThan(0.1);
    expect(token).toBeGreaterThanOrEqual(engine);
    expect(token - engine).toBeLessThan(0.02);
  });

  it('agents: their h “barely moves” (under a point at 16-token blocks)', () => {
    const agent = generateWorkload({ ...LESSON_WORKLOAD, mix: 'agent' });
    const gain = hAt(agent, ENGINE_BLOCK_SIZE) - hAt(agent, MOONCAKE_BLOCK_SIZE);
    expect(gain).toBeGreaterThan(0);
    expect(gain).toBeLessThan(0.01);
  });
});
