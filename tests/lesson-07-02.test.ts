/**
 * Lesson 07.02 (session affinity): the formulas and models behind its prose, widgets and exercise, pinned to
 * hand-computed values.
 */
import { computedOrThrow, isCannotRun } from '../src/sim/engine/cannotRun';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { ENGINE_BLOCK_SIZE } from '../src/sim/engine/blocks';
import {
  coldTurnExtra,
  computedAfterTurn,
  DEFAULT_TRAJECTORY,
  holdingsBeforeTurns,
  maxTurnsWithin,
  oneOverRModel,
  rePrefillCost,
  replayTrajectory,
  trajectoryPrompt,
  warmTurn,
} from '../src/sim/lessons/affinity';
import { affinitySweepPoint, type SweepPoint } from '../src/sim/lessons/affinitySweep';
import { resolveAccelerator, resolveModel } from '../src/sim/engine/catalog/index';
import { defaultHardware, perTokenPrefillTime, prefillTime } from '../src/sim/engine/cost';
import { directContext } from '../src/worker/job';
import { methods } from '../src/worker/methods';
import { knownBeforeTurns, listTraceSessions } from '../src/sim/lessons/affinityTrace';
import { readNative } from '../src/sim/engine/trace/native';
import { SHIPPED_TRAJECTORY_TEXT } from '../src/worker/recordedTrajectoryMethods';
import { EXERCISE_TRACE } from '../src/widgets/traffic-shape/exerciseTrace';
import { COLD_TURN_QUESTION } from '../src/widgets/session-affinity/ColdTurnExercise';

const L70 = resolveModel('llama-3.1-70b');
const H100x8 = defaultHardware(resolveAccelerator('h100-sxm'), 8);

// Llama 3.1 70B by hand: body = active − 2 · vocab · hidden; a = 2 · layers · heads · (d + d).
const BODY_70B = 70.6e9 - 2 * 128_256 * 8192; // 68,498,653,696
const A_70B = 2 * 80 * 64 * (128 + 128); // 2,621,440 FLOP per (query, key) pair
const G_8xH100 = 8 * 989e12 * 0.64; // achieved FLOP/s of the replica's matmuls (GEMM efficiency 0.64)
const GA_8xH100 = 8 * 989e12 * 0.56; // … and of its attention (0.56)
// β: 160 all-reduces of one token's 8,192 × 2 B, ring factor 2·7/8, bus 380 GB/s × (1 − 0.86/64)
const BETA_8xH100 = (160 * 1.75 * 16_384) / (380e9 * (1 - 0.86 / 64));
/** t_tok(c) by hand. */
const tTok = (c: number) => (2 * BODY_70B) / G_8xH100 + (A_70B * (c + 1)) / GA_8xH100 + BETA_8xH100;
/** Σ t_tok over N tokens from position 0 by hand. */
const reprefill = (N: number) =>
  (2 * BODY_70B * N) / G_8xH100 + (A_70B * N * (N + 1)) / 2 / GA_8xH100 + BETA_8xH100 * N;

describe('the lesson trajectory', () => {
  it('grows by output + tool result per turn: turn 12 sends 40,000 tokens', () => {
    expect(trajectoryPrompt(DEFAULT_TRAJECTORY, 0)).toBe(10_000);
    expect(trajectoryPrompt(DEFAULT_TRAJECTORY, 1)).toBe(12_500);
    expect(trajectoryPrompt(DEFAULT_TRAJECTORY, 12)).toBe(40_000);
  });

  it('the prose: a cold landing costs more late in the trajectory than early (turn 20 against turn 1, 16-token blocks)', () => {
    const hw = defaultHardware(resolveAccelerator('h100-sxm'), 8);
    const m = resolveModel('llama-3.1-70b');
    const cold = (turn: number) => {
      const { prompt, cached } = warmTurn(DEFAULT_TRAJECTORY, turn, ENGINE_BLOCK_SIZE);
      return { cached, extra: coldTurnExtra(m, hw, prompt, cached).extraS };
    };
    expect(cold(1).cached).toBe(10_496);
    expect(cold(20).cached).toBe(57_984); // 59,999 tokens in whole 16-token blocks
    expect(cold(20).extra).toBeGreaterThan(3 * cold(1).extra);
  });

  it('a finished turn leaves its prompt and output, less the last token, in whole blocks', () => {
    // turn 11: 37,500 + 500 − 1 = 37,999 → 148 blocks of 256 = 37,888
    expect(computedAfterTurn(37_500, 500, 256)).toBe(37_888);
    // turn 0: 10,499 → 41 blocks = 10,496
    expect(computedAfterTurn(10_000, 500, 256)).toBe(10_496);
    expect(computedAfterTurn(256, 1, 256)).toBe(256);
    // at vLLM's 16-token blocks, the fleet's default: 37,999 → 2,374 blocks = 37,984
    expect(computedAfterTurn(37_500, 500, ENGINE_BLOCK_SIZE)).toBe(37_984);
  });

  it('is cut to the model context window', () => {
    // 10,000 + k · 2,500 + 500 ≤ 131,072 → k ≤ 48.2 → 49 turns (0 … 48)
    expect(maxTurnsWithin(DEFAULT_TRAJECTORY, 131_072)).toBe(49);
    expect(maxTurnsWithin(DEFAULT_TRAJECTORY, 12_000)).toBe(1);
  });
});

describe('the cost of a cold turn', () => {
  it('t_tok(c) = 2·body/(G·F·e_GEMM) + a·(c+1)/(G·F·e_attn) + β, by hand for Llama 3.1 70B on 8 × H100', () => {
    expect(perTokenPrefillTime(L70, H100x8, 0)).toBeCloseTo(tTok(0), 15);
    expect(perTokenPrefillTime(L70, H100x8, 0) * 1e6).toBeCloseTo(39.292, 2); // µs
    expect(BETA_8xH100 * 1e6).toBeCloseTo(12.237, 2); // β, µs
    expect(perTokenPrefillTime(L70, H100x8, 19_999.5)).toBeCloseTo(tTok(19_999.5), 15);
  });

  it('ΔTTFT = Σ t_tok(c) = N · t_tok(c̄) = 2·body·N/G + a·N(N+1)/2/G_a + β·N', () => {
    const N = 38_000;
    const byHand = reprefill(N);
    expect(byHand).toBeCloseTo(1.9203, 4);
    const r = rePrefillCost(L70, H100x8, N, 0);
    expect(r.midContext).toBe((N - 1) / 2);
    expect(r.extraS).toBeCloseTo(byHand, 10);
    let sum = 0;
    for (let c = 0; c < N; c++) sum += perTokenPrefillTime(L70, H100x8, c);
    expect(sum).toBeCloseTo(byHand, 9);
  });

  it("the exercise's answer: prefillTime(40k, 0) − prefillTime(2k on 38k) equals the hand formula", () => {
    const c = coldTurnExtra(L70, H100x8, 40_000, 38_000);
    expect(c.coldS).toBeCloseTo(prefillTime(L70, H100x8, 40_000, 0), 12);
    expect(c.warmS).toBeCloseTo(prefillTime(L70, H100x8, 2_000, 38_000), 12);
    // Both prefills are compute-bound, so the LM head and the 2,000 new tokens cancel exactly.
    // (one iteration each: the all-reduce latencies and the overhead cancel too)
    expect(c.extraS).toBeCloseTo(reprefill(38_000), 9);
    expect(c.approxS).toBeCloseTo(c.extraS, 9);
  });

  it('the exercise asks about turn 12 of the lesson trajectory: 40,000 tokens, 38,000 of them cached', () => {
    expect(COLD_TURN_QUESTION).toEqual({
      modelId: 'llama-3.1-70b',
      nodeId: 'dgx-h100',
      promptTokens: 40_000,
      cachedTokens: 38_000,
    });
  });

  it('the worker method answers for a node from the catalog (DGX H100 = 8 × H100 SXM)', () => {
    const r = methods.coldTurnCost({
      modelId: 'llama-3.1-70b',
      nodeId: 'dgx-h100',
      promptTokens: 40_000,
      cachedTokens: 38_000,
    });
    expect(r.gpus).toBe(8);
    expect(r.extraS).toBeCloseTo(1.9203, 4);
    expect(r.formula.bodyFlopsPerToken).toBe(2 * BODY_70B);
    expect(r.formula.attentionFlopsPerPair).toBe(A_70B);
    expect(() =>
      methods.coldTurnCost({ modelId: 'nope', nodeId: 'dgx-h100', promptTokens: 10, cachedTokens: 5 }),
    ).toThrow(/unknown model "nope"/);
    expect(() =>
      methods.coldTurnCost({
        modelId: 'llama-3.1-70b',
        nodeId: 'dgx-h100',
        promptTokens: 10,
        cachedTokens: 10,
      }),
    ).toThrow(/^The cached part of the prompt takes whole numbers from 0 to 9 tokens, not 10.$/);
  });
});

describe('one trajectory over R replicas (the fleet simulator)', () => {
  const hw = { model: 'llama-3.1-70b', accelerator: 'h100-sxm', tp: 8 };
  const R = 4;
  const out = replayTrajectory(hw, DEFAULT_TRAJECTORY, R, ['round-robin', 'session-affinity', 'random'], 1);
  const [rr, aff, rnd] = out.runs;

  it('affinity: one replica; after the first turn every turn finds everything computed before', () => {
    expect(new Set(aff.rows.map((r) => r.replica)).size).toBe(1);
    expect(aff.rows[0].kind).toBe('first');
    for (const r of aff.rows.slice(1)) {
      expect(r.kind).toBe('warm');
      expect(r.rePrefilledTokens).toBe(0);
      const prev = trajectoryPrompt(DEFAULT_TRAJECTORY, r.turn - 1);
      expect(r.reusedTokens).toBe(computedAfterTurn(prev, 500, ENGINE_BLOCK_SIZE));
      expect(r.prefilledTokens).toBe(r.promptTokens - r.reusedTokens);
    }
    // turn 12: 37,984 of 40,000 reused (37,999 in whole 16-token blocks: the engine's block size)
    expect(aff.rows[12].reusedTokens).toBe(37_984);
    expect(aff.rows[12].hitRate).toBeCloseTo(37_984 / 40_000, 12);
    expect(aff.totals.rePrefilledTokens).toBe(0);
  });

  it('round-robin: turn k on replica k mod R; turns 1 … R−1 cold, later turns find the prefix of turn k − R', () => {
    rr.rows.forEach((r, k) => expect(r.replica).toBe(k % R));
    for (let k = 1; k < R; k++) {
      expect(rr.rows[k].kind).toBe('cold');
      expect(rr.rows[k].reusedTokens).toBe(0);
      expect(rr.rows[k].rePrefilledTokens).toBe(
        computedAfterTurn(trajectoryPrompt(DEFAULT_TRAJECTORY, k - 1), 500, ENGINE_BLOCK_SIZE),
      );
    }
    for (let k = R; k < rr.rows.length; k++) {
      const r = rr.rows[k];
      expect(r.kind).toBe('partial');
      expect(r.reusedTokens).toBe(
        computedAfterTurn(trajectoryPrompt(DEFAULT_TRAJECTORY, k - R), 500, ENGINE_BLOCK_SIZE),
      );
      // it misses R − 1 turns of growth (2,500 tokens each), give or take the block rounding
      expect(Math.abs(r.rePrefilledTokens - (R - 1) * 2_500)).toBeLessThan(256);
    }
  });

  it("the simulated TTFT difference equals the formula's N · t_tok(c̄) plus the fixed cost of each extra chunk", () => {
    // The simulator prefills in 8,192-token chunks. Each pays the all-reduce latencies and the overhead
    // (160 × 37.7 µs + 2.5 ms) and samples the LM head once (2 · vocab · hidden FLOP, 0.4 µs here).
    const fixed = 160 * 37.7e-6 + 2.5e-3;
    const chunks = (n: number) => Math.ceil(n / 8192);
    let extraChunks = 0;
    for (let k = 1; k < rr.rows.length; k++) {
      const simulated = rr.rows[k].ttftS - aff.rows[k].ttftS;
      const more = chunks(rr.rows[k].prefilledTokens) - chunks(aff.rows[k].prefilledTokens);
      extraChunks += more;
      expect(Math.abs(simulated - rr.rows[k].extraS - more * fixed)).toBeLessThan(1e-5);
      expect(simulated).toBeGreaterThanOrEqual(rr.rows[k].extraS);
    }
    expect(extraChunks).toBeGreaterThan(0);
    // turn 1 cold: 10,496 tokens re-prefilled from position 0
    expect(rr.rows[1].extraS).toBeCloseTo(reprefill(10_496), 9);
  });

  it('request-level routing loses hit rate and adds re-prefill; more replicas lose more', () => {
    expect(rr.totals.hitRate).toBeLessThan(aff.totals.hitRate - 0.1);
    expect(rr.totals.rePrefilledTokens).toBeGreaterThan(0);
    expect(rnd.totals.rePrefilledTokens).toBeGreaterThan(0);
    const hits = [2, 4, 8, 16].map(
      (r) => replayTrajectory(hw, DEFAULT_TRAJECTORY, r, ['round-robin'], 1).runs[0].totals.hitRate,
    );
    for (let i = 1; i < hits.length; i++) expect(hits[i]).toBeLessThan(hits[i - 1]);
  });

  it('what each replica holds before each turn', () => {
    const h = holdingsBeforeTurns(rr.rows, R, ENGINE_BLOCK_SIZE);
    expect(h).toHaveLength(rr.rows.length + 1);
    expect(h[0]).toEqual([0, 0, 0, 0]);
    expect(h[1]).toEqual([10_496, 0, 0, 0]);
    expect(h[4][0]).toBe(10_496);
    expect(h[4][3]).toBe(computedAfterTurn(17_500, 500, ENGINE_BLOCK_SIZE));
    expect(rr.holdings).toEqual(h);
  });

  it('the worker method returns both runs and the formula pieces', () => {
    const r = computedOrThrow(
      methods.affinityReplay({
        modelId: 'llama-3.1-70b',
        acceleratorId: 'h100-sxm',
        gpus: 8,
        replicas: 4,
        routing: 'round-robin',
        turns: 24,
        toolResultTokens: 2_000,
        seed: 1,
      }),
    );
    expect(r.request.policy).toBe('round-robin');
    expect(r.affinity.policy).toBe('session-affinity');
    expect(r.request.totals).toEqual(rr.totals);
    expect(r.formula.perTokenAtZeroS).toBeCloseTo(tTok(0), 15);
    expect(r.formula.allReducePerTokenS).toBeCloseTo(BETA_8xH100, 15);
    expect(r.formula.iterationFixedS).toBeCloseTo(160 * 37.7e-6 + 2.5e-3, 15);
    // 70B on one H100 cannot run: an outcome in the reader's words with the figures, and the GPUs that would fit.
    const one = methods.affinityReplay({ ...baseReplay, gpus: 1 });
    expect(isCannotRun(one)).toBe(true);
    if (!isCannotRun(one)) return;
    expect(one.reason).toMatch(/Llama 3\.1 70B does not fit on 1 × H100 SXM: its weights \(141\.\d GB\)/);
    expect(one.fixes[0]).toEqual({ label: 'Use 2 GPUs per replica', set: { gpus: 2 } });
    expect(isCannotRun(methods.affinityReplay({ ...baseReplay, ...one.fixes[0].set }))).toBe(false);
  });
});

const baseReplay = {
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  gpus: 8,
  replicas: 4,
  routing: 'round-robin' as const,
  turns: 8,
  toolResultTokens: 2_000,
  seed: 1,
};

describe('many sessions over R replicas: the 1/R decay', () => {
  it('the model: s + (h₁ − s)/R', () => {
    expect(oneOverRModel(0.2, 0.9, 1)).toBeCloseTo(0.9, 12);
    expect(oneOverRModel(0.2, 0.9, 2)).toBeCloseTo(0.55, 12);
    expect(oneOverRModel(0, 1, 8)).toBeCloseTo(1 / 8, 12);
  });

  const hw = { model: 'llama-3.1-8b', accelerator: 'h100-sxm', tp: 1 };
  const points: Record<string, SweepPoint> = {};
  const run = async (R: number, policy: 'session-affinity' | 'round-robin' | 'random') =>
    (points[`${policy}:${R}`] ??= await affinitySweepPoint(hw, { agentsPerReplica: 6 }, R, policy, 1));

  it('round-robin over many sessions sends a turn to its previous replica with probability ≈ 1/R', async () => {
    // One seed's share swings by ±0.04 around its mean at R = 4 (0.27–0.34 over seeds 1–4): average four.
    for (const R of [2, 4, 8]) {
      let share = 0;
      for (const seed of [1, 2, 3, 4])
        share +=
          (await affinitySweepPoint(hw, { agentsPerReplica: 6 }, R, 'round-robin', seed)).sameReplicaShare /
          4;
      expect(share).toBeGreaterThan(1 / R - 0.06);
      expect(share).toBeLessThan(1 / R + 0.07);
    }
    const a = await run(8, 'session-affinity');
    expect(a.sameReplicaShare).toBeGreaterThan(0.95);
  }, 60_000);

  it('the prose on the overload escape: on the fleet view’s workload it rarely fires, almost every turn stays put', async () => {
    // The lab's affinity router moves a session off a replica with over twice the fleet mean of outstanding work
    // (vLLM's session router and SGLang's `manual` policy never move for load); it must stay the exception here.
    for (const R of [2, 4, 8, 16])
      expect((await run(R, 'session-affinity')).sameReplicaShare).toBeGreaterThan(0.95);
  }, 60_000);

  it('the hit rate under round-robin falls toward s + (h₁ − s)/R, while affinity stays at h₁', async () => {
    const h1 = (await run(1, 'session-affinity')).hitRate;
    expect(h1).toBeGreaterThan(0.9);
    let prev = h1;
    for (const R of [2, 4, 16]) {
      const rr = await run(R, 'round-robin');
      const model = oneOverRModel(rr.sharedShare, h1, R);
      expect(rr.hitRate).toBeLessThan(prev);
      expect(rr.hitRate).toBeGreaterThanOrEqual(model - 0.02); // stale prefixes only add
      prev = rr.hitRate;
    }
    const at16 = await run(16, 'round-robin');
    expect(at16.hitRate - oneOverRModel(at16.sharedShare, h1, 16)).toBeLessThan(0.1); // close to 1/R by R = 16
    expect(Math.abs((await run(16, 'session-affinity')).hitRate - h1)).toBeLessThan(0.03);
  }, 60_000);

  it('request-level routing multiplies prefill work and the TTFT tail', async () => {
    const a = await run(16, 'session-affinity');
    const r = await run(16, 'round-robin');
    expect(r.prefilledTokens / a.prefilledTokens).toBeGreaterThan(5);
    expect(r.ttftP90S).toBeGreaterThan(3 * a.ttftP90S);
  }, 30_000);

  it('the worker method streams one point per run and sorts the result', async () => {
    const frames: SweepPoint[] = [];
    const res = computedOrThrow(
      await methods.affinitySweep(
        {
          modelId: 'llama-3.1-8b',
          acceleratorId: 'h100-sxm',
          gpus: 1,
          agentsPerReplica: 2,
          routing: 'random',
          seed: 3,
        },
        directContext<SweepPoint>((f) => frames.push(f)),
      ),
    );
    expect(frames).toHaveLength(16);
    // Streamed coarse to fine (lib/progressive.ts), points the worker remembers right after the first new one.
    expect(frames.map((f) => f.replicas).sort((a, b) => a - b)).toEqual(res.points.map((p) => p.replicas));
    expect(res.points.map((p) => p.replicas)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 6, 6, 8, 8, 12, 12, 16, 16]);
    expect(new Set(res.points.map((p) => p.policy))).toEqual(new Set(['session-affinity', 'random']));
    await expect(
      methods.affinitySweep(
        {
          modelId: 'llama-3.1-8b',
          acceleratorId: 'h100-sxm',
          gpus: 1,
          agentsPerReplica: 0,
          routing: 'random',
          seed: 3,
        },
        directContext(),
      ),
    ).rejects.toThrow(/^The agents in flight per replica takes whole numbers from 2 to 16 agents, not 0\.$/);
  }, 30_000);
});

// ───────────────────────────── a recorded trajectory ─────────────────────────────

describe('a recorded trajectory: SWE-agent on marshmallow-1867 (public/traces/)', () => {
  const defaults = {
    modelId: 'llama-3.1-70b',
    acceleratorId: 'h100-sxm',
    gpus: 8,
    replicas: 4,
    routing: 'round-robin' as const,
    seed: 1,
    blockSize: 16,
  };
  const rec = methods.recordedTrajectory(defaults);
  const [asSent, full] = rec.replays;

  it('the shipped trace lists two sessions of 11 turns, the one as sent first, with tool times', () => {
    const list = listTraceSessions(SHIPPED_TRAJECTORY_TEXT);
    expect(list.totalSessions).toBe(2);
    expect(list.errorCount).toBe(0);
    expect(list.sessions.map((x) => x.id)).toEqual([
      'swe-agent/marshmallow-1867',
      'swe-agent/marshmallow-1867/full-history',
    ]);
    for (const x of list.sessions) {
      expect(x.turns).toBe(11);
      expect(x.toolCalls).toBe(11);
      expect(x.toolS).toBeCloseTo(3.998, 3); // Σ execution_time of the trajectory's steps
    }
    // The full history only grows; the processed one is shorter from turn 6 on.
    expect(list.sessions[1].lastPromptTokens).toBeGreaterThan(list.sessions[0].lastPromptTokens);
    expect(list.sessions[0].firstPromptTokens).toBe(list.sessions[1].firstPromptTokens);
  });

  it('the tool schemas segment is the gpt-tokenizer count of the schemas shipped beside the converter', () => {
    const tools = readFileSync(
      new URL('../scripts/data/swe-agent-function-tools.json', import.meta.url),
      'utf8',
    );
    const turn0 = readNative(SHIPPED_TRAJECTORY_TEXT).turns[0];
    const seg = turn0.input.find((x) => x.id === 'swe-agent/tools');
    expect(seg?.tokens).toBe(encode(JSON.stringify(JSON.parse(tools))).length);
    expect(turn0.input.map((x) => x.id)).toEqual([
      'swe-agent/system',
      'swe-agent/tools',
      'swe-agent/marshmallow-1867/task',
    ]);
  });

  it('what a turn computed before follows the content: pure extensions keep all, a rewritten result cuts', () => {
    const turns = readNative(listTraceSessions(SHIPPED_TRAJECTORY_TEXT).texts[0]).turns;
    const known = knownBeforeTurns(turns, 16);
    // Turn 1 extends turn 0: turn 0 left ⌊(2,250 + 53 − 1) / 16⌋ · 16 = 2,288 computed.
    expect(turns[0].inputTokens).toBe(2250);
    expect(turns[0].output.tokens).toBe(53);
    expect(known[1]).toBe(2288);
    // Turn 6 elides observation 0, which starts right after system + tools + task + out0 = 2,303 tokens:
    // only the whole blocks before it, ⌊2,303 / 16⌋ · 16 = 2,288, match.
    expect(known[6]).toBe(2288);
    expect(known[0]).toBe(0);
  });

  it('affinity finds everything the session computed before, in both sessions; round-robin does not', () => {
    for (const rep of [asSent, full]) {
      expect(rep.source).toBe('trace');
      expect(rep.turns).toBe(11);
      for (const row of rep.affinity.rows.slice(1)) {
        expect(row.kind).toBe('warm');
        expect(row.reusedTokens).toBe(row.knownTokens);
      }
      expect(rep.affinity.totals.rePrefilledTokens).toBe(0);
      // Round-robin over 4 replicas: turns 1, 2, 3 land cold.
      expect(rep.request.rows.slice(1, 4).map((x) => x.kind)).toEqual(['cold', 'cold', 'cold']);
      expect(rep.request.totals.coldTurns).toBe(3);
      expect(rep.request.totals.rePrefilledTokens).toBeGreaterThan(0);
      expect(rep.request.totals.hitRate).toBeLessThan(rep.affinity.totals.hitRate);
    }
  });

  it("SWE-agent's last-5-observations processor rewrites the context from turn 6: affinity's hit rate falls", () => {
    const aff = asSent.affinity.rows;
    // Turns 1–5 extend the previous prompt: above 95 % of each prompt is found.
    for (const row of aff.slice(1, 6)) {
      expect(row.droppedTokens).toBe(0);
      expect(row.hitRate).toBeGreaterThan(0.95);
    }
    // From turn 6 on every turn rewrites what the previous one computed, and finds under 60 %.
    expect(aff.findIndex((x) => x.droppedTokens > 0)).toBe(6);
    for (const row of aff.slice(6)) {
      expect(row.droppedTokens).toBeGreaterThan(0);
      expect(row.hitRate).toBeLessThan(0.6);
    }
    // The full history never drops a token: every turn finds at least as much as the processed one, and from
    // turn 8 on far more.
    full.affinity.rows.slice(1).forEach((row, i) => {
      expect(row.droppedTokens).toBe(0);
      expect(row.hitRate).toBeGreaterThanOrEqual(aff[i + 1].hitRate);
      if (i + 1 >= 8) expect(row.hitRate).toBeGreaterThan(aff[i + 1].hitRate + 0.4);
    });
    expect(full.affinity.totals.hitRate).toBeGreaterThan(asSent.affinity.totals.hitRate + 0.3);
    // …so affinity's figure on the recorded session is lower than on the synthetic trajectory (same defaults).
    const synthetic = replayTrajectory(
      { model: 'llama-3.1-70b', accelerator: 'h100-sxm', tp: 8 },
      DEFAULT_TRAJECTORY,
      4,
      ['session-affinity'],
    );
    expect(asSent.affinity.totals.hitRate).toBeLessThan(synthetic.runs[0].totals.hitRate);
    // The rewrite throws away most of what affinity gains over round-robin.
    const gain = (rep: typeof full) => rep.affinity.totals.hitRate - rep.request.totals.hitRate;
    expect(gain(asSent)).toBeLessThan(gain(full) / 2);
  });

  it('the widget method replays a session given as its own trace, and says why a Mooncake trace cannot serve', async () => {
    const list = await methods.traceSessions(
      { text: SHIPPED_TRAJECTORY_TEXT, name: 'x.jsonl' },
      directContext(),
    );
    expect(list.sessions.length).toBe(2);
    const r = computedOrThrow(
      methods.affinityReplay({
        ...defaults,
        turns: 2,
        toolResultTokens: 0,
        session: { id: list.sessions[1].id, text: list.texts[1] },
      }),
    );
    expect(r.affinity.totals.hitRate).toBeCloseTo(full.affinity.totals.hitRate, 12);
    await expect(
      methods.traceSessions({ text: EXERCISE_TRACE, name: 'm.jsonl' }, directContext()),
    ).rejects.toThrow(/m\.jsonl: this is a Mooncake trace: its requests carry no session id/);
  });
});
