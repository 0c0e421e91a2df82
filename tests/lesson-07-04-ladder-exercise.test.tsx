/**
 * 07.04's reload exercise and the memory ladder's "Try this" as a reader sees them: every figure is rendered from the
 * setup the answer is computed for (LADDER_EXERCISE_SETUP: the widget's defaults with a longer context) or the one
 * the items start from (LADDER_DEFAULTS), and from the catalog entries the worker resolves them to, so a constant
 * changed without its text (or a figure typed back in) fails here.
 */
import { describe, expect, it } from 'vitest';
import { renderedText } from './lessonText';
import { expectValidSets } from './try-this';
import { countWord } from '../src/lib/numberWords';
import {
  LADDER_EXERCISE_SETUP,
  ladderExerciseFigures,
  LadderHint,
  LadderQuestion,
} from '../src/widgets/memory-ladder/LadderExercise';
import { figureText, TIER_METRIC_KEYS, WHOLE_METRIC_KEYS } from '../src/widgets/memory-ladder/figures';
import { NODE_DRAM_TB, TRY_DRAM_TB, TRY_THIS } from '../src/widgets/memory-ladder/MemoryLadder';
import { LADDER_DEFAULTS, PROSE_SETUPS, ladderArgs, ladderSchema } from '../src/widgets/memory-ladder/schema';
import { memoryLadderMethod } from '../src/worker/hierarchyMethods';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findLink } from '../src/sim/engine/catalog/links';
import { findModel, kvBytesPerToken } from '../src/sim/engine/catalog/models';
import { findNode, nodeTotals } from '../src/sim/engine/catalog/nodes';
import {
  formatBandwidth,
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../src/lib/format';

const text = renderedText;
const n = (x: number) => formatNumber(x, 9);
/** "DGX H100 (8 × H100 SXM)" as the question names it. */
const short = (name: string) => name.split(' (')[0];

const setup = LADDER_EXERCISE_SETUP;
const node = findNode(setup.nodeId)!;
const model = findModel(setup.modelId)!;
const link = findLink(findAccelerator(node.accelerator)!.hostLink)!;
const r = memoryLadderMethod(setup);
const dram = r.tiers.find((t) => t.id === 'dram')!;
/** The widget's default (100,000-token) DRAM tier, which the "Try this" items start from. */
const defaultDram = memoryLadderMethod(PROSE_SETUPS.ladder).tiers.find((t) => t.id === 'dram')!;

describe('07.04 exercise (reload from host DRAM): the text states the setup the answer is computed for', () => {
  const q = text(<LadderQuestion />);
  const hint = text(<LadderHint />);

  it('the setup is the widget’s default but for a context length no prose setup quotes', () => {
    expect(setup).toEqual(ladderArgs({ ...LADDER_DEFAULTS, contextTokens: setup.contextTokens }));
    for (const prose of Object.values(PROSE_SETUPS))
      expect(prose.contextTokens).not.toBe(setup.contextTokens);
    // Within the model's window, and a value the ladder's context control takes (to check the answer there).
    expect(setup.contextTokens).toBeLessThanOrEqual(model.maxContext);
    expect(setup.contextTokens).toBeGreaterThanOrEqual(ladderSchema.contextTokens.min);
    expect(setup.contextTokens).toBeLessThanOrEqual(ladderSchema.contextTokens.max);
    expect(ladderExerciseFigures().node).toEqual(node);
    expect(ladderExerciseFigures().hostLink).toEqual(link);
  });

  it('the question names the context, model, KV dtype and node from the setup and the catalog', () => {
    expect(q).toContain(
      `An agent's ${n(setup.contextTokens)}-token ${model.name} context (${setup.kvDtype.toUpperCase()} KV)`,
    );
    expect(q).toContain(`the host DRAM of a ${short(node.name)} during a tool call`);
  });

  it('the question’s GPUs, host link, bandwidth and latency are the node’s and its accelerator’s host link', () => {
    expect(countWord(8)).toBe('eight');
    expect(countWord(13)).toBe('13');
    expect(q).toContain(
      `Each of the ${countWord(node.gpuCount)} GPUs reads its share over its own ${short(link.name)} link`,
    );
    expect(q).toContain(
      `at the ${link.effectiveBasis} ${formatBandwidth(link.effectiveBandwidth)}, with a fixed ${formatDuration(link.latency)} per transfer`,
    );
    // The worker's DRAM path is that link, once per GPU, and its latency alone.
    expect(dram.hops).toHaveLength(1);
    expect(dram.hops[0]).toMatchObject({
      linkId: link.id,
      count: node.gpuCount,
      perLinkBandwidth: link.effectiveBandwidth,
      latency: link.latency,
    });
  });

  it('the hint’s bytes per token and bandwidth are the worker’s, and its recipe gives the answer', () => {
    const perToken = ladderExerciseFigures().bytesPerToken;
    expect(perToken).toBe(kvBytesPerToken(model, setup.kvDtype) * r.kvCopies);
    expect(hint).toContain(`The context is ${n(setup.contextTokens)} tokens × ${n(perToken)} bytes.`);
    expect(hint).toContain(
      `The ${countWord(node.gpuCount)} links work in parallel, so the bandwidth is ${node.gpuCount} × ${formatBandwidth(link.effectiveBandwidth)}.`,
    );
    expect(setup.contextTokens * perToken).toBe(r.contextBytes);
    const recipe =
      link.latency + (setup.contextTokens * perToken) / (node.gpuCount * link.effectiveBandwidth);
    expect(Math.abs(recipe / dram.reloadS - 1)).toBeLessThan(1e-12);
  });
});

describe('07.04 reload exercise: not answered on the page before it is asked', () => {
  it('no figure the prose quotes (any setup, any metric) is the answer, in ms or as a duration', () => {
    const answerMs = formatNumber(dram.reloadS * 1e3);
    const answer = formatDuration(dram.reloadS);
    for (const s of Object.values(PROSE_SETUPS)) {
      const fig = memoryLadderMethod(s);
      for (const m of WHOLE_METRIC_KEYS) expect(figureText(fig, m)).not.toContain(answer);
      for (const m of TIER_METRIC_KEYS)
        for (const t of ['hbm', 'dram', 'nvme', 'remote'] as const) {
          expect(figureText(fig, m, t)).not.toBe(answer);
          expect(figureText(fig, m, t)).not.toBe(`${answerMs} ms`);
        }
    }
    // The default 100,000-token reload the page does show is another number.
    expect(formatDuration(defaultDram.reloadS)).not.toBe(answer);
  });
});

describe('the memory ladder’s “Try this”: the figures are the settings the items set', () => {
  const item = (i: number) => text(<>{TRY_THIS[i].text}</>);

  it('every item sets a value its control offers', () => {
    expectValidSets(TRY_THIS, ladderSchema);
  });

  it('0: host DRAM from the default to the item’s setting, still short of the node’s, holding as many times the contexts', () => {
    expect(TRY_THIS[0].set).toEqual({ dramTB: TRY_DRAM_TB });
    // The default is half the node's DRAM; the item stays below all of it, leaving the OS and staging buffers some.
    const nodeTB = nodeTotals(findNode(LADDER_DEFAULTS.node)!).hostDramBytes / 1e12;
    expect(NODE_DRAM_TB).toBe(nodeTB);
    expect(LADDER_DEFAULTS.dramTB).toBe(nodeTB / 2);
    expect(TRY_DRAM_TB).toBeGreaterThan(LADDER_DEFAULTS.dramTB);
    expect(TRY_DRAM_TB).toBeLessThan(nodeTB);
    const ratio = TRY_DRAM_TB / LADDER_DEFAULTS.dramTB;
    expect(item(0)).toContain(
      `from ${formatBytesDecimal(LADDER_DEFAULTS.dramTB * 1e12)} to ${formatBytesDecimal(TRY_DRAM_TB * 1e12)}, ${formatPercent(TRY_DRAM_TB / nodeTB)} of the node’s ${formatBytesDecimal(nodeTB * 1e12)}`,
    );
    expect(item(0)).toContain(`holds ${formatRatio(ratio)} the contexts`);
    const more = memoryLadderMethod(ladderArgs({ ...LADDER_DEFAULTS, dramTB: TRY_DRAM_TB }));
    const held = more.tiers.find((t) => t.id === 'dram')!.contexts;
    expect(Math.abs(held - ratio * defaultDram.contexts)).toBeLessThanOrEqual(1);
    // "agents move up from the drives (…the pool stays full)"; "its reload time does not change"
    const agentsIn = (r: typeof more, t: string) => r.placement.find((p) => p.tier === t)!.agents;
    const base = memoryLadderMethod(ladderArgs(LADDER_DEFAULTS));
    expect(agentsIn(more, 'remote')).toBe(agentsIn(base, 'remote'));
    expect(agentsIn(more, 'nvme')).toBe(agentsIn(base, 'nvme') - (held - defaultDram.contexts));
    expect(more.tiers.find((t) => t.id === 'dram')!.reloadS).toBe(defaultDram.reloadS);
  });

  it('1 and 2: the context lengths named are the default and the one the item sets (ten times shorter)', () => {
    expect(item(1)).toContain(`recompute at ${formatCount(LADDER_DEFAULTS.contextTokens)} tokens`);
    const short = TRY_THIS[2].set as { contextTokens: number };
    expect(short.contextTokens).toBe(PROSE_SETUPS.shortOneDrive.contextTokens);
    expect(item(2)).toContain(
      `to ${formatCount(short.contextTokens)} tokens: every tier holds ten times more`,
    );
    expect(LADDER_DEFAULTS.contextTokens / short.contextTokens).toBe(10);
  });
});

describe('07.04 contexts exercise: not answered on the page before it is asked', () => {
  it('its context length is not the calculator’s default, and no contexts figure the prose quotes is its answer', async () => {
    const { QUESTION_ARGS } = await import('../src/widgets/kv-footprint/KvFootprintExercise');
    const { kvFootprintSchema } = await import('../src/widgets/kv-footprint/schema');
    const { methods } = await import('../src/worker/methods');
    expect(QUESTION_ARGS.contextTokens).not.toBe(kvFootprintSchema.contextTokens.default);
    const answer = String(methods.kvFootprint(QUESTION_ARGS).concurrentContexts);
    const atDefault = methods.kvFootprint({
      ...QUESTION_ARGS,
      contextTokens: kvFootprintSchema.contextTokens.default,
    });
    expect(String(atDefault.concurrentContexts)).not.toBe(answer);
    for (const s of Object.values(PROSE_SETUPS))
      for (const t of ['hbm', 'dram', 'nvme', 'remote'] as const)
        expect(figureText(memoryLadderMethod(s), 'contexts', t)).not.toBe(answer);
  });
});
