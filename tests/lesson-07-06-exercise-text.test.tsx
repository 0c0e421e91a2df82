/**
 * 07.06's exercises and the arena's goodput read-out as a reader sees them: every figure their texts name is the one
 * the answer is computed with (the exercises' arguments, the lab's replica, the arena scenario's SLO), so a constant
 * changed without its text, or a figure typed back in, fails here.
 */
import { describe, expect, it } from 'vitest';
import { renderedText } from './lessonText';
import {
  HELD_ARGS,
  HeldExplanation,
  HeldHint,
  HeldQuestion,
  TTL_ARGS,
  TTL_CONTRAST_ARGS,
  TTL_COVERAGE,
  TTL_FOR_COVERAGE,
  TtlExplanation,
  TtlHint,
  TtlQuestion,
} from '../src/widgets/tool-pause/Exercises';
import { ArenaReadouts, GOODPUT_RULE } from '../src/widgets/tool-pause/ArenaReadouts';
import { LabFig } from '../src/widgets/tool-pause/Figures';
import { toolLatencySchema } from '../src/widgets/tool-pause/schema';
import { ordinal } from '../src/lib/numberWords';
import { methods } from '../src/worker/methods';
import type { ToolLatencyRequest, ToolLatencyResponse } from '../src/worker/pauseMethods';
import { pauseScenario, type PauseArenaArgs, type PauseSummary } from '../src/sim/lessons/pauseLab';
import { PAUSE_MODEL, PAUSE_SLO } from '../src/sim/lessons/pauseLabSetup';
import { normQuantile } from '../src/sim/lessons/standardNormal';
import { resolveScenario } from '../src/sim/engine/fleet/scenario';
import { TOOL_LATENCY_PRESETS } from '../src/sim/engine/fleet/dist';
import { findModel, kvBytesPerToken } from '../src/sim/engine/catalog/models';
import { defaultValues } from '../src/state/paramSchema';
import { formatBytes, formatDuration, formatNumber, formatPercent } from '../src/lib/format';

/** The text as a reader sees it (the apostrophes React escapes, read back). */
const text = renderedText;
const toolLatency = (req: ToolLatencyRequest) =>
  (methods.toolLatency as (r: ToolLatencyRequest) => ToolLatencyResponse)(req);

describe('07.06 exercise 1 (the TTL that keeps a share of pauses warm)', () => {
  const at = toolLatency(TTL_ARGS);

  it('the answer is where the worker’s F(τ) reaches the share the question names', () => {
    expect(TTL_ARGS.ttlS).toBe(TTL_FOR_COVERAGE);
    expect(at.selected.resumedInHbm).toBeCloseTo(TTL_COVERAGE, 9);
    expect(at.costs.resumedInHbm).toBeCloseTo(TTL_COVERAGE, 9);
  });

  it('the question, the hint and the explanation name that share, its complement and its normal quantile', () => {
    const q = text(<TtlQuestion />);
    expect(q).toContain(`keeps ${formatPercent(TTL_COVERAGE)} of the paused sessions’ KV in HBM`);
    expect(q).toContain('keeps 90% of the paused sessions’ KV in HBM');
    expect(q).toContain(`a median of ${formatDuration(TOOL_LATENCY_PRESETS.web.median)}`);

    const z = formatNumber(normQuantile(TTL_COVERAGE), 5);
    const h = text(<TtlHint />);
    expect(h).toContain(`) = ${formatNumber(TTL_COVERAGE)}. The ${ordinal(TTL_COVERAGE * 100)} percentile`);
    expect(h).toContain(`= ${z}: solve`);
    expect(h).toContain(`= ${z} for τ`);
    expect(h).toContain('= 0.9. The 90th percentile of the standard normal is z₀.₉ = 1.2816: solve');

    const mix = toolLatency(TTL_CONTRAST_ARGS).costs;
    const e = text(<TtlExplanation costs={at.costs} mix={mix} />);
    expect(e).toContain(`× ${z}) = ${formatDuration(TTL_FOR_COVERAGE, 3)}.`);
    expect(e).toContain(`The other ${formatPercent(1 - TTL_COVERAGE)} of calls run longer`);
    expect(e).toContain(`of the memory for ${formatPercent(TTL_COVERAGE)} of the warm resumes`);
    expect(e).toContain('The other 10% of calls');
    expect(e).toContain(
      `resumes ${formatPercent(mix.resumedInHbm)} of its pauses in HBM at the same τ for ${formatPercent(mix.heldS / mix.meanS)} of hold’s memory`,
    );
  });

  it('“this tail is light”: the web calls past τ carry little of the tool time, the coding mix’s most of it', () => {
    const mix = toolLatency(TTL_CONTRAST_ARGS).costs;
    expect(TTL_CONTRAST_ARGS.ttlS).toBe(TTL_ARGS.ttlS);
    expect(TTL_CONTRAST_ARGS.tool).toBe('coding-mix');
    // web: the TTL takes over 90% of hold's memory for its 90% of warm resumes (σ ≈ 0.58)
    expect(TOOL_LATENCY_PRESETS.web.sigma).toBeLessThan(1);
    expect(at.costs.heldS / at.costs.meanS).toBeGreaterThan(0.9);
    // the coding mix at the same τ: as many warm resumes, for a small share of hold's memory
    expect(mix.resumedInHbm).toBeGreaterThanOrEqual(TTL_COVERAGE);
    expect(mix.heldS / mix.meanS).toBeLessThan(0.25);
    expect(1 - mix.heldS / mix.meanS).toBeGreaterThan(0.5); // "a few long calls carry most of the time"
  });
});

describe('07.06 exercise 2 (byte-seconds one pause holds)', () => {
  const c = toolLatency(HELD_ARGS).costs;
  const m = findModel(PAUSE_MODEL)!;

  it('its session is the tool-latency widget’s defaults but for τ (“its defaults are this session but for τ”), which the page does not show', () => {
    const d = defaultValues(toolLatencySchema);
    for (const [k, v] of Object.entries(HELD_ARGS))
      if (k === 'ttlS') expect(v).not.toBe(d.ttlS);
      else expect(d[k as keyof typeof d], k).toBe(v);
    const q = text(<HeldQuestion />);
    expect(q).toContain(`but for τ: set it to ${toolLatencySchema.ttlS.format(HELD_ARGS.ttlS)}`);
    // the prose and the widget's default read-out print the byte-seconds at the default τ: not the answer
    const atDefault = toolLatency({ ...HELD_ARGS, ttlS: d.ttlS }).costs;
    expect(Math.abs(atDefault.heldByteSeconds / c.heldByteSeconds - 1)).toBeGreaterThan(0.2);
  });

  it('the question and the hint: the context, the lab’s model and its KV per token, the TTL', () => {
    expect(c.replica.modelName).toBe(m.name);
    expect(c.replica.kvBytesPerToken).toBe(2 * m.layers * m.kvHeads * m.headDim * 2);
    expect(c.contextBytes).toBe(HELD_ARGS.contextTokens * c.replica.kvBytesPerToken);
    const q = text(<HeldQuestion />);
    expect(q).toContain(
      `with ${formatNumber(HELD_ARGS.contextTokens, 6)} tokens of ${m.name} context in HBM ` +
        `(${formatBytes(c.replica.kvBytesPerToken)} of KV per token)`,
    );
    expect(q).toContain(`Under a ${formatDuration(c.ttlS)} TTL`);
    expect(q).toContain('30,000 tokens of Qwen3 32B context in HBM (256 KiB of KV per token)');
    expect(q).toContain('Under a 5 s TTL');

    const h = text(<HeldHint c={c} />);
    expect(h).toContain(
      `b = ${formatNumber(c.contextTokens, 6)} × ${formatNumber(c.contextBytes / c.contextTokens, 7)} bytes.`,
    );
    expect(h).toContain(`long before ${formatDuration(c.ttlS)})`);
    expect(h).toContain(`${formatPercent(c.resumedInHbm)} of calls end within ${formatDuration(c.ttlS)},`);
    expect(h).toContain('b = 30,000 × 262,144 bytes.');
  });

  it('the explanation: E[min(T, τ)] at the TTL computed', () => {
    const e = text(<HeldExplanation c={c} />);
    expect(e).toContain(`E[min(T, ${formatDuration(HELD_ARGS.ttlS)})] = M(τ) + τ·(1 − F(τ))`);
    expect(e).toContain(`${formatPercent(1 - c.resumedInHbm)} of pauses that outlast the TTL`);
  });
});

describe('07.06 arena: the goodput read-out names the SLO its scenario runs with', () => {
  const args: PauseArenaArgs = { ttlS: 2, tool: 'coding-mix', agents: 8, seed: 1 };
  const sc = pauseScenario('hold', args);
  const resolved = resolveScenario(sc);

  /** A summary with only what the read-outs print (the SLO is no part of it). */
  const s = {
    policy: 'hold',
    ttlS: null,
    resumes: {
      count: 10,
      ttft: { mean: 0.2, p50: 0.1, p90: 0.4, p99: 1 },
      inHbmShare: 0.9,
      source: { hbm: 0.9, dram: 0, recomputed: 0.1 },
    },
    firstTtftP50: 0.5,
    idlePinnedBlocks: 10,
    idleCachedBlocks: 5,
    idleDramBlocks: 0,
    hbmUsedBlocks: 100,
    pcieUpBytes: 1e9,
    pcieDownBytes: 2e9,
    outputTokensPerS: 500,
    goodputShare: 0.95,
    goodputTokensPerS: 475,
    promptTokens: 1e6,
    prefilledTokens: 2e5,
    requestsFinished: 100,
    sessionsFinished: 5,
    heldReleases: 0,
    simulatedS: 600,
  } as unknown as PauseSummary;

  it('TTFT and TPOT bounds are the scenario’s objectives, as the fleet simulator resolves them', () => {
    expect(sc.slo).toEqual(PAUSE_SLO);
    expect(resolved.sloTtftS).toBe(PAUSE_SLO.ttftP90S);
    expect(resolved.sloTpotS).toBe(PAUSE_SLO.tpotP90S);
    const rule = `requests with TTFT ≤ ${formatDuration(resolved.sloTtftS)} and TPOT ≤ ${formatDuration(resolved.sloTpotS)}`;
    expect(GOODPUT_RULE).toBe(rule);
    const t = text(<ArenaReadouts s={s} bpb={1e6} budget={1e11} closedForm={undefined} />);
    expect(t).toContain(`goodput: ${rule}; ${formatPercent(0.2)} of prompt tokens prefilled`);
    expect(t).toContain('goodput: requests with TTFT ≤ 2 s and TPOT ≤ 100 ms;');
  });

  it('the prose names both objectives goodput counts, from the same SLO', () => {
    expect(text(<LabFig what="sloTtft" />)).toBe(formatDuration(resolved.sloTtftS));
    expect(text(<LabFig what="sloTpot" />)).toBe(formatDuration(resolved.sloTpotS));
    expect(text(<LabFig what="sloTpot" />)).toBe('100 ms');
  });
});

describe('07.06 tool-latency control: the context’s help names the replica’s KV per token', () => {
  it('the lab’s model and its KV bytes per token, from the catalog at the dtype the fleet resolves', () => {
    const m = findModel(PAUSE_MODEL)!;
    const arena = resolveScenario(pauseScenario('hold', { ttlS: 2, tool: 'coding-mix', agents: 8, seed: 1 }));
    expect(arena.model.name).toBe(m.name);
    expect(toolLatencySchema.contextTokens.help).toBe(
      `Tokens of KV the paused session holds (${m.name}: ${formatBytes(kvBytesPerToken(m, arena.hw.kvDtype))} per token).`,
    );
    expect(toolLatencySchema.contextTokens.help).toContain('256 KiB per token');
  });
});
