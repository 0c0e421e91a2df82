/**
 * 07.07's hand-typed numbers and qualitative claims, against what the lab computes: the settings the prose quotes
 * (cache multipliers, price, replica, block size, variants), the break-even period, and each layout's claim at
 * the second widget's defaults.
 */
import { lessonSource, renderedText } from './lessonText';
import { describe, expect, it } from 'vitest';
import {
  ChangePeriod,
  changePeriodText,
  leadingBlocksText,
  Replica,
  TimestampBlocks,
  VARIANTS,
} from '../src/widgets/tool-schema/figures';
import { EXERCISE_ARGS, EXERCISE_LAYOUT, TimestampQuestion } from '../src/widgets/tool-schema/SchemaExercise';
import { missWord } from '../src/widgets/tool-schema/ToolBlockLayout';
import {
  CACHE_READ,
  CACHE_WRITE,
  LAYOUT_DEFAULTS,
  TAX_DEFAULTS,
  layoutArgs,
  layoutSchema,
  taxArgs,
} from '../src/widgets/tool-schema/schema';
import { AGENT_TOOLS, ADDED_TOOL } from '../src/sim/lessons/tools/agentTools';
import { renderTool } from '../src/sim/lessons/toolDefinitions';
import { sessionToolCost } from '../src/sim/lessons/toolSchema';
import { toolLayouts, toolSchemaTax } from '../src/worker/schemaMethods';

const text = renderedText;
const { prose, flat } = lessonSource('07-07-tool-schema-tax');

describe('07.07: the settings the prose quotes are the widgets’', () => {
  it('the replica prefill is timed on, as a figure of both widgets’ defaults', () => {
    expect(text(<Replica />)).toBe('Llama 3.1 70B on 8 × H100 SXM');
    expect(text(<Replica w="layout" />)).toBe('Llama 3.1 70B on 8 × H100 SXM');
    expect(prose).toContain('<TaxFig m="prefill" /> on <Replica />');
    expect(prose).toContain('In prefill time on <Replica w="layout" />');
    expect(prose).not.toMatch(/8 × H100 \(|on 8 × H100 the/);
  });

  it('cache write 1.25× (2× for an hour) and read 0.1×, at $3 per million input tokens, as the widget prices them', () => {
    expect(CACHE_WRITE).toEqual({ '5m': 1.25, '1h': 2 });
    expect(CACHE_READ).toBe(0.1);
    const a = taxArgs(TAX_DEFAULTS);
    expect([a.writeMultiplier, a.readMultiplier, a.inputPerMTok]).toEqual([1.25, 0.1, 3]);
    expect(taxArgs({ ...TAX_DEFAULTS, cacheTtl: '1h' }).writeMultiplier).toBe(2);
    expect(flat).toContain('$w = 1.25$ times the base input price $p$ (2 times for a one-hour cache)');
    expect(flat).toContain('a cache **read** at $r = 0.1$ times');
    expect(flat).toContain('$p$ = \\$3 per million input tokens');
    expect(flat).toContain('with cache reads at 0.1× the price');
  });

  it('pretty-printing is a two-space indent; 16-token blocks are the layout widget’s default (vLLM’s)', () => {
    const t = AGENT_TOOLS[0];
    expect(renderTool(t, 'openai', true)).toBe(JSON.stringify(JSON.parse(renderTool(t, 'openai')), null, 2));
    expect(flat).toContain('pretty-printed with a two-space indent');
    expect(LAYOUT_DEFAULTS.blockSize).toBe('16');
    expect(layoutArgs(LAYOUT_DEFAULTS).blockSize).toBe(16);
    expect(layoutSchema.blockSize.options.find((o) => o.value === '16')?.label).toMatch(/vLLM default/);
    expect(flat).toContain('(16 in vLLM by default)');
  });

  it('"every 5 turns" is the variant the figure beside it computes, in the body and in the tour', () => {
    expect(VARIANTS.every5).toEqual({ changeEvery: 5 });
    expect(VARIANTS.every1).toEqual({ changeEvery: 1 });
    expect(text(<ChangePeriod v="every5" />)).toBe('5 turns');
    expect(changePeriodText('every1')).toBe('turn');
    expect(() => changePeriodText('pretty')).toThrow(/does not change/);
    expect(flat).toContain(
      'A block that changes every <ChangePeriod v="every5" /> still saves <TaxFig m="saving" v="every5" />',
    );
    expect(flat).toContain(
      'changed only every <ChangePeriod v="every5" /> it still saves <TaxFig m="saving" v="every5" />',
    );
  });

  it('the tour attributes the three rules to the Manus team and "static first" to the providers’ caching guides, as the body does', () => {
    const step = flat.match(
      /<TourStep section="static-first-anything-that-changes-after-it"[^>]*>(.*?)<\/TourStep>/,
    )?.[1];
    expect(step).toBeDefined();
    expect(step).toContain("Anthropic's and OpenAI's caching guides agree: static content first");
    expect(step).toMatch(
      /The Manus team[^.]*: keep the prefix stable, make the context append-only, and mask tools/,
    );
    expect(step).not.toContain("The providers' advice");
    // the body: Anthropic's fixed order and OpenAI's static-first guide; Manus lists the three rules
    expect(flat).toContain("OpenAI's prompt-caching guide asks for static content");
    expect(flat).toMatch(
      /The Manus team, after rebuilding[^]*1\. \*\*Keep the prefix stable\.\*\*[^]*2\. \*\*Make the context append-only\.\*\*[^]*3\. \*\*Mask, don't remove\.\*\*/,
    );
  });

  it('the recap: prefill roughly in proportion to the tokens prefilled, plus attention that grows with the context (the layout widget’s cost model)', async () => {
    expect(flat).toContain(
      'Prefill costs compute roughly in proportion to the tokens prefilled, plus attention that grows with the context',
    );
    const r = await toolLayouts(layoutArgs(LAYOUT_DEFAULTS));
    const best = r.layouts.find((l) => l.layout === 'tools-first')!;
    // Each later turn prefills about the same new tokens on top of a longer hit: its seconds per prefilled token
    // grow with the context the new tokens attend to.
    const perToken = best.turns.map((t, i) => best.seconds[i] / t.prefillTokens);
    const last = perToken.length - 1;
    expect(best.turns[last].hitTokens).toBeGreaterThan(best.turns[1].hitTokens);
    expect(perToken[last]).toBeGreaterThan(perToken[1]);
    // "roughly in proportion": the layout that prefills many times the tokens takes a like multiple of the seconds.
    const top = r.layouts.find((l) => l.layout === 'timestamp-top')!;
    const tokens = top.prefillTokens / best.prefillTokens;
    const seconds = top.totalSeconds / best.totalSeconds;
    expect(seconds).toBeGreaterThan(0.5 * tokens);
    expect(seconds).toBeLessThan(2 * tokens);
  });
});

describe('07.07: the tool set’s size, as the prose describes it', () => {
  it('small tools of a few sentences each, a few dozen to a few hundred tokens; the block in the thousands', async () => {
    for (const t of [...AGENT_TOOLS, ADDED_TOOL]) {
      const sentences = t.description.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
      expect(sentences).toBeLessThanOrEqual(4);
    }
    const r = await toolSchemaTax(taxArgs(TAX_DEFAULTS));
    const tokens = r.tools.map((t) => t.tokens);
    expect(Math.min(...tokens)).toBeGreaterThanOrEqual(24);
    expect(Math.max(...tokens)).toBeLessThan(1000);
    expect(r.toolTokens).toBeGreaterThanOrEqual(1000);
    // "Production tool sets are bigger": Anthropic's GitHub server, 35 tools in ~26,000 tokens, ~743 a tool.
    expect(Math.max(...tokens)).toBeLessThan(26_000 / 35);
    expect(r.toolTokens).toBeLessThan(55_000);
  });
});

describe('07.07: the break-even period of a changing block', () => {
  const price = { inputPerMTok: 3, writeMultiplier: CACHE_WRITE['5m'], readMultiplier: CACHE_READ };
  it('k > (w − r)/(1 − r) ≈ 1.28: a block rewritten every turn costs more with a cache, every 2nd turn less', () => {
    const k = (price.writeMultiplier - price.readMultiplier) / (1 - price.readMultiplier);
    expect(k.toFixed(2)).toBe('1.28');
    expect(flat).toContain('\\frac{1.25 - 0.1}{1 - 0.1} \\approx 1.28');
    const at = (every: number) => sessionToolCost(4427, 20, every, price);
    expect(at(1).costCached).toBeGreaterThan(at(1).costNoCache);
    expect(at(2).costCached).toBeLessThan(at(2).costNoCache);
  });

  it('"What to remember": more with a cache only where writes bill a premium; self-hosted, the same prefill as no cache', () => {
    const every = sessionToolCost(4427, 20, 1, price);
    expect(every.prefilledCached).toBe(every.prefilledNoCache);
    // with no write premium (w = 1) the bill is the prefill's: the same as no cache
    const flatWrite = sessionToolCost(4427, 20, 1, { ...price, writeMultiplier: 1 });
    expect(flatWrite.costCached).toBeCloseTo(flatWrite.costNoCache, 12);
    expect(flat).toContain(
      'costs more with a cache than without one on an API that bills cache writes at a premium',
    );
    expect(flat).toContain('and the same as no cache on a self-hosted engine');
  });
});

describe('07.07: each layout’s claim at the second widget’s defaults', async () => {
  const L = await toolLayouts(layoutArgs(LAYOUT_DEFAULTS));
  const by = Object.fromEntries(L.layouts.map((l) => [l.layout, l]));
  const B = Number(LAYOUT_DEFAULTS.blockSize);
  const floorB = (x: number) => Math.floor(x / B) * B;
  const { newTokens, outputTokens, systemTokens, changeTurn } = LAYOUT_DEFAULTS;

  it('growth per turn is in line with TraceLab’s 1.7–1.8k tokens per step', () => {
    expect(newTokens + outputTokens).toBeGreaterThanOrEqual(1700);
    expect(newTokens + outputTokens).toBeLessThanOrEqual(1800);
    expect(flat).toContain('in line with the 1.7–1.8k tokens per step that TraceLab measured');
  });

  it('tools first: each turn hits the last turn’s prompt and output but a partial block, and prefills little more than its new tokens', () => {
    const t = by['tools-first'].turns;
    for (let i = 1; i < t.length; i++) {
      expect(t[i].hitTokens).toBe(floorB(t[i - 1].promptTokens + outputTokens));
      expect(t[i].prefillTokens).toBeGreaterThanOrEqual(newTokens);
      expect(t[i].prefillTokens).toBeLessThan(newTokens + B);
    }
    expect(flat).toContain('all but a last partial block');
  });

  it('a timestamp above the tools spans the leading blocks the prose names, and nothing hits', () => {
    const spanned = Math.ceil(LAYOUT_DEFAULTS.timestampTokens / B);
    expect(spanned).toBe(2);
    expect(text(<TimestampBlocks />)).toBe('blocks 0 and 1');
    expect(leadingBlocksText(16, 16)).toBe('block 0');
    expect(leadingBlocksText(40, 16)).toBe('blocks 0 to 2');
    expect(flat).toContain('sit in <TimestampBlocks />');
    expect(flat).not.toContain('sit in block 0');
    for (const t of by['timestamp-top'].turns) expect(t.hitTokens).toBe(0);
  });

  it('the strip says "re-prefilled" only for tokens an earlier prompt held', () => {
    expect(missWord('new', 5, false)).toBe('prefilled');
    expect(missWord('timestamp', 5, false)).toBe('prefilled');
    expect(missWord('history', 1, false)).toBe('prefilled');
    expect(missWord('tools', 1, false)).toBe('prefilled');
    expect(missWord('tools', changeTurn, true)).toBe('prefilled');
    expect(missWord('history', 5, false)).toBe('re-prefilled');
    expect(missWord('tools', 5, false)).toBe('re-prefilled');
  });

  it('a timestamp between system and history: the tools and system prompt hit (to a full block), the history never', () => {
    const t = by['timestamp-after-tools'].turns;
    for (let i = 1; i < t.length; i++) expect(t[i].hitTokens).toBe(floorB(L.toolTokens + systemTokens));
  });

  it('a tool added mid-session lands before the block’s first tool, so its one spike is the whole prompt', () => {
    expect(AGENT_TOOLS.findIndex((x) => x.name > ADDED_TOOL.name)).toBe(0);
    const t = by['tool-added'].turns;
    const spike = t[changeTurn - 1];
    expect(spike.hitTokens).toBe(0);
    expect(spike.prefillTokens).toBe(spike.promptTokens);
    expect(Math.max(...t.slice(1).map((x) => x.prefillTokens))).toBe(spike.prefillTokens);
    expect(flat).toContain("before the first tool whose name sorts after it (here the block's first)");
  });

  it('tools after the history: all but the last turn’s history hits, and the whole tool block is prefilled every turn', () => {
    const t = by['tools-after-history'].turns;
    for (let i = 1; i < t.length; i++) {
      expect(t[i].hitTokens).toBe(floorB(systemTokens + (i - 1) * (newTokens + outputTokens)));
      expect(t[i].toolTokensPrefilled).toBe(L.toolTokens);
    }
    expect(flat).toContain('older history hits');
  });
});

describe('07.07 exercise: a session the page does not show', async () => {
  const shown = await toolLayouts(layoutArgs(LAYOUT_DEFAULTS));
  const asked = await toolLayouts(EXERCISE_ARGS);
  const top = (r: typeof asked) => r.layouts.find((l) => l.layout === 'timestamp-top')!.prefillTokens;

  it('differs from the defaults only in its length, so the prose’s and the read-out’s total is not its answer', () => {
    expect({ ...EXERCISE_LAYOUT, turns: LAYOUT_DEFAULTS.turns }).toEqual(LAYOUT_DEFAULTS);
    expect(EXERCISE_LAYOUT.turns).not.toBe(LAYOUT_DEFAULTS.turns);
    expect(top(asked)).not.toBe(top(shown));
    expect(EXERCISE_LAYOUT.turns).toBeLessThanOrEqual(layoutSchema.turns.max);
  });

  it('its answer is the hand sum: every prompt prefilled whole', () => {
    const d = EXERCISE_LAYOUT;
    const head = d.timestampTokens + asked.toolTokens + d.systemTokens + d.newTokens;
    const n = d.turns;
    expect(top(asked)).toBe(n * head + (d.newTokens + d.outputTokens) * ((n * (n - 1)) / 2));
  });

  it('the question names the session’s length and asks the reader to set it', () => {
    const q = text(<TimestampQuestion toolTokens={asked.toolTokens} />);
    expect(q).toContain(`over a ${EXERCISE_LAYOUT.turns}-turn session`);
    expect(q).toContain(`set the turns in the session to ${EXERCISE_LAYOUT.turns})`);
  });
});
