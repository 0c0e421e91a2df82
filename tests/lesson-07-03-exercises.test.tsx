/**
 * 07.03's exercises as a reader sees them: every figure the questions, hints and explanations state is rendered from
 * the constants the answers compute with (TURN, DUP, DUP_REPLICA) and from the model and accelerator catalogs, so a
 * constant changed without its text (or a figure typed back in) fails here.
 */
import { describe, expect, it } from 'vitest';
import { renderedText } from './lessonText';
import {
  DUP,
  DUP_REPLICA,
  DuplicateKvExplanation,
  DuplicateKvHint,
  DuplicateKvQuestion,
  duplicateKvFigures,
  RoundRobinExplanation,
  RoundRobinHint,
  RoundRobinQuestion,
  TURN,
} from '../src/widgets/cache-router/RoutingExercises';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { DTYPE_BYTES, findModel, kvBytesPerToken, weightBytes } from '../src/sim/engine/catalog/models';
import { acceleratorName, modelName } from '../src/sim/engine/catalog/names';
import { VLLM_GPU_MEMORY_UTILIZATION } from '../src/sim/engine/hbm';
import {
  LAB_ACCELERATOR,
  LAB_BLOCK_SIZE,
  LAB_MODEL,
  LAB_SHARED_TOKENS,
  LAB_TP,
} from '../src/sim/lessons/routing/constants';
import { replicaKvBlocks, spreadTurnHitRate } from '../src/sim/lessons/routing/theory';
import { formatBytesDecimal, formatNumber, formatPercent } from '../src/lib/format';

const text = renderedText;
const n = (x: number) => formatNumber(x, 6);
/** The figures written in digits in a text (5,000 · 12 · 1/4 → 5,000, 12, 1, 4). */
const figuresIn = (s: string): string[] => s.match(/\d[\d,]*(?:\.\d+)?/g) ?? [];

describe('07.03 exercise 1 (round-robin hit rate): the text states TURN', () => {
  const q = text(<RoundRobinQuestion />);
  const hint = text(<RoundRobinHint />);

  it('the shared head is the lab’s (system prompt and tool schemas)', () => {
    expect(TURN.sharedTokens).toBe(LAB_SHARED_TOKENS);
  });

  it('the question names the shared head, the turn, the prompt, the previous context and R from TURN', () => {
    expect(q).toContain(`open with a ${n(TURN.sharedTokens)}-token shared head`);
    expect(q).toContain(`Turn ${n(TURN.turn)} of one session sends a ${n(TURN.promptTokens)}-token prompt`);
    expect(q).toContain(`(its prompt and its output) was ${n(TURN.previousContextTokens)} tokens`);
    expect(q).toContain(`spreads the turns over ${n(TURN.replicas)} replicas`);
    // The answer's 1/R model: in a busy fleet each turn lands as if at random. A session alone would visit the
    // replicas in turn, never land warm, and reuse only the shared head: another answer.
    expect(q).toContain('in a busy fleet');
    expect(q).toContain('each turn lands on a replica as if at random');
    // No other figure: each one in the question is one of TURN's.
    const allowed = [
      TURN.sharedTokens,
      TURN.turn,
      TURN.promptTokens,
      TURN.previousContextTokens,
      TURN.replicas,
    ];
    for (const f of figuresIn(q)) expect(allowed.map(n), f).toContain(f);
  });

  it('the hint’s 1/R, context and shared head are TURN’s', () => {
    expect(hint).toContain(`With probability 1/R = 1/${n(TURN.replicas)} the turn lands`);
    expect(hint).toContain(`reuses all ${n(TURN.previousContextTokens)} tokens`);
    expect(hint).toContain(`reuses only the shared ${n(TURN.sharedTokens)}.`);
    const allowed = [1, TURN.replicas, TURN.previousContextTokens, TURN.sharedTokens];
    for (const f of figuresIn(hint)) expect(allowed.map(n), f).toContain(f);
  });

  it('the explanation’s sum is the answer’s formula over TURN', () => {
    const e = text(<RoundRobinExplanation />);
    const S = TURN.sharedTokens;
    const C = TURN.previousContextTokens;
    const R = TURN.replicas;
    expect(e).toContain(
      `= ${n(S)} + (${n(C)} − ${n(S)}) / ${n(R)} = ${formatNumber(S + (C - S) / R, 5)}, over a ${n(TURN.promptTokens)}-token prompt: ${formatPercent(spreadTurnHitRate(TURN))}`,
    );
    expect((S + (C - S) / R) / TURN.promptTokens).toBe(spreadTurnHitRate(TURN));
    expect(e).toContain(`reuses ${n(C)} of ${n(TURN.promptTokens)} tokens`);
  });
});

describe('07.03 exercise 2 (duplicated KV): the text states DUP, DUP_REPLICA and the catalog', () => {
  const m = findModel(DUP.model)!;
  const q = text(<DuplicateKvQuestion />);
  const hint = text(<DuplicateKvHint />);
  const e = text(<DuplicateKvExplanation />);

  it('the fleet and the replica are the lab’s (Qwen3 32B on 2 × H100 SXM, 256-token pages, vLLM’s 0.9)', () => {
    expect(DUP.model).toBe(LAB_MODEL);
    expect(DUP_REPLICA).toMatchObject({
      gpus: LAB_TP,
      accelerator: LAB_ACCELERATOR,
      memoryUtilization: VLLM_GPU_MEMORY_UTILIZATION,
      blockSize: LAB_BLOCK_SIZE,
    });
  });

  it('the question names the replicas, the model by its catalog name, the KV dtype, the turns and the context', () => {
    expect(q).toContain(
      `A fleet of ${n(DUP.replicas)} replicas serves ${m.name} with a ${DUP.kvDtype.toUpperCase()} KV cache`,
    );
    expect(q).toContain(`has run ${n(DUP.turns)} turns and its context has grown to ${n(DUP.tokens)} tokens`);
    expect(q).not.toContain('Qwen3-32B');
    // Older copies hold the context as of the turn their replica last served: the question asks for the bound.
    expect(q).toContain(`for an upper bound, count every copy at the full ${n(DUP.tokens)} tokens`);
    expect(q).toContain('At most how many gigabytes');
    // The answer's min(turns, R) copies: the turns met no other traffic, so round-robin visited the replicas in
    // turn (the hint says the same; in a busy fleet they land as if at random, exercise 1's model, and fewer hold one).
    expect(q).toContain('so each turn went to the next replica in turn');
    expect(hint).toContain(
      'With no other request between its turns, round-robin sends each turn to the next replica',
    );
    const allowed = [DUP.replicas, DUP.turns, DUP.tokens, 10].map(n); // 10 of "10⁹ bytes"
    for (const f of figuresIn(q.replace(m.name, '').replace(DUP.kvDtype.toUpperCase(), '')))
      expect(allowed, f).toContain(f);
  });

  it('the hint’s layers, KV heads and head dim are the catalog’s, and its product is the KV bytes per token', () => {
    expect(hint).toContain(`after ${n(DUP.turns)} turns every one of the ${n(DUP.replicas)} replicas`);
    // "every one of the replicas has served the session": round-robin has visited them all.
    expect(duplicateKvFigures().copies).toBe(DUP.replicas);
    expect(hint).toContain(
      `2 × layers (${n(m.layers)}) × KV heads (${n(m.kvHeads)}) × head dim (${n(m.headDim)}) × ${DTYPE_BYTES[DUP.kvDtype]} bytes`,
    );
    expect(2 * m.layers * m.kvHeads * m.headDim * DTYPE_BYTES[DUP.kvDtype]).toBe(
      kvBytesPerToken(m, DUP.kvDtype),
    );
  });

  it('the explanation’s copies, bytes and replica are the answer’s', () => {
    const f = duplicateKvFigures();
    const copies = Math.min(DUP.turns, DUP.replicas);
    expect(f.copies).toBe(copies);
    expect(f.bytes).toBe((copies - 1) * DUP.tokens * kvBytesPerToken(m, DUP.kvDtype));
    expect(e).toContain(`Copies = min(${n(DUP.turns)}, ${n(DUP.replicas)}) = ${copies}`);
    expect(e).toContain(`one token of ${modelName(DUP.model)}’s KV is ${formatNumber(f.perToken)} bytes`);
    expect(e).toContain(
      `(${copies} − 1) × ${n(DUP.tokens)} × ${formatNumber(f.perToken)} B = ${formatBytesDecimal(f.bytes)}`,
    );
    expect(e).toContain(
      `On ${n(DUP_REPLICA.gpus)} × ${acceleratorName(DUP_REPLICA.accelerator)} a replica has ${formatBytesDecimal(f.replicaKv)} of KV`,
    );
    const blocks = replicaKvBlocks({
      gpus: DUP_REPLICA.gpus,
      memoryBytes: findAccelerator(DUP_REPLICA.accelerator)!.memoryBytes,
      memoryUtilization: DUP_REPLICA.memoryUtilization,
      weightBytes: weightBytes(m, DUP_REPLICA.weightDtype),
      kvBytesPerToken: f.perToken,
      blockSize: DUP_REPLICA.blockSize,
    });
    expect(f.replicaKv).toBe(blocks * DUP_REPLICA.blockSize * f.perToken);
  });
});
