/**
 * Lesson 07.07, the tool schema tax: token counts of fixed strings and of the shipped tools from the real
 * tokenizer (gpt-tokenizer o200k_base, through the worker methods), the session cost arithmetic with the cache
 * multipliers, the pasted-JSON validation, and the prefix-cache hits of each prompt layout against hand counts.
 */
import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { renderedText } from './lessonText';
import { methods } from '../src/worker/methods';
import { isCannotRun } from '../src/sim/engine/cannotRun';
import { AGENT_TOOLS } from '../src/sim/lessons/tools/agentTools';
import { sessionToolCost } from '../src/sim/lessons/toolSchema';
import { lineColumn, parseToolDefinitions, renderTool } from '../src/sim/lessons/toolDefinitions';
import { layoutPrompt, simulateLayout, type LayoutSetup } from '../src/sim/lessons/toolLayouts';
import { countTokens, toolLayouts, toolSchemaTax } from '../src/worker/schemaMethods';

const TAX_DEFAULTS = {
  toolCount: 36,
  format: 'openai',
  pretty: false,
  turns: 20,
  changeEvery: 0,
  inputPerMTok: 3,
  writeMultiplier: 1.25,
  readMultiplier: 0.1,
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  gpus: 8,
  custom: null,
};

const LAYOUT_REQUEST = {
  toolCount: 36,
  format: 'openai',
  systemTokens: 2000,
  newTokens: 1500,
  outputTokens: 300,
  timestampTokens: 20,
  turns: 20,
  blockSize: 16,
  changeTurn: 10,
  seed: 1,
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  gpus: 8,
};

describe('o200k_base token counts (gpt-tokenizer 4.0.0)', () => {
  it('counts fixed strings as the tokenizer does', async () => {
    expect(await methods.encodeText({ text: 'Hello, world!' })).toEqual({
      ids: [13225, 11, 2375, 0],
      tokens: 4,
    });
    expect(await countTokens('{"type":"object","properties":{}}')).toBe(9);
    expect(await countTokens('')).toBe(0);
  });

  it('counts the shipped tool definitions', async () => {
    const readFile = AGENT_TOOLS.find((t) => t.name === 'read_file')!;
    expect(await countTokens(renderTool(readFile, 'openai'))).toBe(140);
    const r = await toolSchemaTax(TAX_DEFAULTS);
    expect(r.tools).toHaveLength(36);
    expect(r.toolTokens).toBe(4427);
    // Whitespace is tokens: the same definitions pretty-printed cost more; Anthropic's flat shape costs less.
    expect((await toolSchemaTax({ ...TAX_DEFAULTS, pretty: true })).toolTokens).toBe(7048);
    expect((await toolSchemaTax({ ...TAX_DEFAULTS, format: 'anthropic' })).toolTokens).toBe(4211);
    // More tools, more tokens.
    expect((await toolSchemaTax({ ...TAX_DEFAULTS, toolCount: 10 })).toolTokens).toBeLessThan(r.toolTokens);
  });

  it('counts a pasted tool set, and falls back to the shipped one with a located error when it is invalid', async () => {
    const paste = JSON.stringify([
      {
        name: 'ping',
        description: 'Ping a host.',
        input_schema: { type: 'object', properties: { host: { type: 'string' } } },
      },
    ]);
    const ok = await toolSchemaTax({ ...TAX_DEFAULTS, custom: paste });
    expect(ok.source).toBe('custom');
    expect(ok.tools.map((t) => t.name)).toEqual(['ping']);
    expect(ok.toolTokens).toBe(
      await countTokens(
        renderTool(
          {
            name: 'ping',
            description: 'Ping a host.',
            parameters: { type: 'object', properties: { host: { type: 'string' } } },
          },
          'openai',
        ),
      ),
    );
    const bad = await toolSchemaTax({ ...TAX_DEFAULTS, custom: '[{"name": "x",}]' });
    expect(bad.source).toBe('shipped');
    expect(bad.customError?.line).toBe(1);
    expect(bad.customError?.message).toMatch(/^Invalid JSON at line 1, column \d+/);
  });
});

describe('session cost of the tool block, with the cache multipliers', () => {
  const price = { inputPerMTok: 3, writeMultiplier: 1.25, readMultiplier: 0.1 };
  it('never changes: written once, read 19 times', () => {
    const c = sessionToolCost(10_000, 20, 0, price);
    expect(c.prefilledNoCache).toBe(200_000);
    expect(c.prefilledCached).toBe(10_000);
    expect(c.costNoCache).toBeCloseTo(0.6, 12); // 200k × $3/M
    expect(c.costCached).toBeCloseTo(0.03 * (1.25 + 0.1 * 19), 12); // $0.0945
    expect(c.saving).toBeCloseTo(1 - 0.0945 / 0.6, 12);
  });
  it('changes every 5 turns: 4 writes, 16 reads', () => {
    const c = sessionToolCost(10_000, 20, 5, price);
    expect([c.writes, c.reads]).toEqual([4, 16]);
    expect(c.costCached).toBeCloseTo(0.03 * (4 * 1.25 + 16 * 0.1), 12); // $0.198
  });
  it('changes every turn: the cache costs 25% more than no cache', () => {
    const c = sessionToolCost(10_000, 20, 1, price);
    expect(c.costCached / c.costNoCache).toBeCloseTo(1.25, 12);
  });
});

describe('pasted JSON validation', () => {
  it('locates a syntax error by line and column', () => {
    const text = '[\n  {"name": "a"},\n  {"name": "b" "description": "x"}\n]';
    const r = parseToolDefinitions(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.line).toBe(3);
      expect(r.error.column).toBe(16);
      expect(r.error.message).toMatch(/^Invalid JSON at line 3, column 16/);
    }
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
  it('rejects bad shapes with a clear message and never throws', () => {
    const msg = (t: string) => {
      const r = parseToolDefinitions(t);
      return r.ok ? 'ok' : r.error.message;
    };
    expect(msg('')).toMatch(/Nothing to count/);
    expect(msg('42')).toMatch(/Expected a JSON array/);
    expect(msg('[]')).toMatch(/no tool definitions/);
    expect(msg('[1]')).toMatch(/Tool 1 is not an object/);
    expect(msg('[{"description":"x"}]')).toMatch(/no "name"/);
    expect(msg('[{"name":"has space"}]')).toMatch(/letters, digits/);
    expect(msg('[{"name":"a","parameters":{"type":"string"}}]')).toMatch(/must be "object"/);
    expect(msg('[{"name":"a"},{"name":"a"}]')).toMatch(/used twice/);
    expect(
      msg('{"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}'),
    ).toBe('ok');
  });
});

describe('prefix-cache hits of the prompt layouts (block size 4, hand-counted)', () => {
  const setup: LayoutSetup = {
    tools: [{ name: 'a', tokens: 8 }],
    addedTool: { name: 'b', tokens: 4 },
    systemTokens: 4,
    newTokens: 4,
    outputTokens: 4,
    timestampTokens: 1,
    turns: 3,
    blockSize: 4,
    changeTurn: 2,
    seed: 1,
  };
  const prefills = (layout: Parameters<typeof simulateLayout>[1], s = setup) =>
    simulateLayout(s, layout).turns.map((t) => [t.promptTokens, t.hitTokens]);

  it('tools first: each turn re-prefills only its new tokens', () => {
    // Turn 1: 8 + 4 + 4 = 16, cold. Turn 2: 24, the 20 tokens of turn 1's prompt and output hit. Turn 3: 32, 28 hit.
    expect(prefills('tools-first')).toEqual([
      [16, 0],
      [24, 20],
      [32, 28],
    ]);
    const r = simulateLayout(setup, 'tools-first');
    expect(r.hitRate).toBeCloseTo(48 / 72, 12);
    expect(r.toolTokensPrefilled).toBe(8);
  });
  it('a timestamp above everything: nothing ever hits', () => {
    expect(prefills('timestamp-top')).toEqual([
      [17, 0],
      [25, 0],
      [33, 0],
    ]);
    expect(simulateLayout(setup, 'timestamp-top').toolTokensPrefilled).toBe(24);
  });
  it('tools after the history: only the system prompt and the old history hit', () => {
    // Turn 2: sys | new1 out1 | a a | new2 — the 2nd block was "a" on turn 1: hit 4. Turn 3: sys new1 out1 hit, new2 ≠ a: 12.
    expect(prefills('tools-after-history')).toEqual([
      [16, 0],
      [24, 4],
      [32, 12],
    ]);
  });
  it('a tool added at turn 2 in name order (after "a") misses from the tool on, once', () => {
    expect(prefills('tool-added')).toEqual([
      [16, 0],
      [28, 8],
      [36, 32],
    ]);
  });
  it('partial blocks: only full blocks are cached and hit', () => {
    const s = { ...setup, systemTokens: 6, turns: 2 };
    // Turn 1: 8 + 6 + 4 = 18 tokens, plus 4 of output = 22 → 5 full blocks cached. Turn 2 (26 tokens) hits 20.
    expect(prefills('tools-first', s)).toEqual([
      [18, 0],
      [26, 20],
    ]);
  });
  it('the prompt order of each layout', () => {
    const kinds = (l: Parameters<typeof layoutPrompt>[1]) => [
      ...new Set(layoutPrompt(setup, l, 2).map((x) => x.kind)),
    ];
    expect(kinds('tools-first')).toEqual(['tools', 'system', 'history', 'new']);
    expect(kinds('timestamp-top')).toEqual(['timestamp', 'tools', 'system', 'history', 'new']);
    expect(kinds('timestamp-after-tools')).toEqual(['tools', 'system', 'timestamp', 'history', 'new']);
    expect(kinds('tools-after-history')).toEqual(['system', 'history', 'tools', 'new']);
  });
});

describe('the lesson defaults (worker method)', () => {
  it('20 turns, 36 tools: a timestamp on top re-prefills every prompt whole', async () => {
    const L = await toolLayouts(LAYOUT_REQUEST);
    const by = Object.fromEntries(L.layouts.map((l) => [l.layout, l]));
    // Σ_{t=1..20} (20 + 4,427 + 2,000 + 1,800·(t−1) + 1,500) = 20 × 7,947 + 1,800 × 190 = 500,940.
    expect(by['timestamp-top'].prefillTokens).toBe(500_940);
    expect(by['timestamp-top'].hitRate).toBe(0);
    expect(by['tools-first'].hitRate).toBeGreaterThan(0.9);
    expect(by['tools-first'].toolTokensPrefilled).toBe(4427);
    expect(by['tools-after-history'].toolTokensPrefilled).toBe(20 * 4427);
  });
});

describe('the widgets’ worker methods check the replica before timing it', () => {
  it('at the lesson’s replica they give what the core computes; 70B on one H100 cannot run, and says so', async () => {
    expect(await methods.toolSchemaTax(TAX_DEFAULTS)).toEqual(await toolSchemaTax(TAX_DEFAULTS));
    for (const out of [
      await methods.toolSchemaTax({ ...TAX_DEFAULTS, gpus: 1 }),
      await methods.toolLayouts({ ...LAYOUT_REQUEST, gpus: 1 }),
    ]) {
      expect(isCannotRun(out)).toBe(true);
      if (!isCannotRun(out)) continue;
      expect(out.reason).toMatch(/^Llama 3\.1 70B does not fit on 1 × H100 SXM/);
      expect(out.fixes[0]).toEqual({ label: 'Use 2 GPUs per replica', set: { gpus: 2 } });
    }
  });
});

describe('cumulative series of the tool block', () => {
  it('ends at the session totals', async () => {
    const { sessionToolSeries } = await import('../src/sim/lessons/toolSchema');
    const price = { inputPerMTok: 3, writeMultiplier: 1.25, readMultiplier: 0.1 };
    const s = sessionToolSeries(10_000, 20, 5, price);
    const c = sessionToolCost(10_000, 20, 5, price);
    expect(s).toHaveLength(20);
    expect(s[19].prefilledCached).toBe(c.prefilledCached);
    expect(s[19].costCached).toBeCloseTo(c.costCached, 12);
    expect(s[5].prefilledCached).toBe(20_000); // written on turns 1 and 6
  });
});

describe('the tokenizer stays in the worker', () => {
  it('no main-thread module of the lesson imports gpt-tokenizer', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../src/widgets/tool-schema/', import.meta.url);
    const files = readdirSync(dir).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files)
      expect(readFileSync(new URL(f, dir), 'utf8')).not.toMatch(/from ['"]gpt-tokenizer/);
    // The worker method imports it lazily (a dynamic import), never statically.
    const worker = readFileSync(new URL('../src/worker/schemaMethods.ts', import.meta.url), 'utf8');
    expect(worker).toMatch(/import\('gpt-tokenizer\/encoding\/o200k_base'\)/);
    expect(worker).not.toMatch(/^import .*gpt-tokenizer/m);
  });
});

describe("the widgets' Try this items, at the state each one sets", async () => {
  const { TRY_THIS: TAX_TRY } = await import('../src/widgets/tool-schema/ToolSchemaTax');
  const { TRY_THIS: LAYOUT_TRY } = await import('../src/widgets/tool-schema/ToolBlockLayout');
  const {
    TAX_DEFAULTS: TAX_VALUES,
    LAYOUT_DEFAULTS,
    taxArgs,
    layoutArgs,
  } = await import('../src/widgets/tool-schema/schema');
  const tax = (i: number) => toolSchemaTax(taxArgs({ ...TAX_VALUES, ...TAX_TRY[i].set }));
  const layouts = async (i: number) => {
    const L = await toolLayouts(layoutArgs({ ...LAYOUT_DEFAULTS, ...LAYOUT_TRY[i].set }));
    return Object.fromEntries(L.layouts.map((l) => [l.layout, l]));
  };

  it('fewer tools, fewer tokens on every request; the largest are run_command and grep', async () => {
    const all = await toolSchemaTax(taxArgs(TAX_VALUES));
    expect((await tax(0)).toolTokens).toBeLessThan(all.toolTokens);
    const largest = [...all.tools].sort((a, b) => b.tokens - a.tokens).slice(0, 2);
    expect(largest.map((t) => t.name).sort()).toEqual(['grep', 'run_command']);
  });
  it('pretty-printed: more than half again as many tokens', async () => {
    const all = await toolSchemaTax(taxArgs(TAX_VALUES));
    expect((await tax(1)).toolTokens / all.toolTokens).toBeGreaterThan(1.5);
  });
  it('a block that changes every turn: the cache costs more than none; every 5 turns it saves most of the bill', async () => {
    const every1 = (await tax(2)).session;
    expect(every1.costCached).toBeGreaterThan(every1.costNoCache);
    const every5 = (await toolSchemaTax(taxArgs({ ...TAX_VALUES, ...TAX_TRY[2].set, changeEvery: 5 })))
      .session;
    expect(every5.saving).toBeGreaterThan(0.5);
  });
  it('a timestamp above the tools: the hit rate falls to 0%', async () => {
    expect(LAYOUT_TRY[0].set?.layout).toBe('timestamp-top');
    // "Twenty tokens that change every turn": the timestamp line the widget opens with.
    expect(renderedText(LAYOUT_TRY[0].text as ReactElement)).toContain('Twenty tokens');
    expect(LAYOUT_DEFAULTS.timestampTokens).toBe(20);
    expect((await layouts(0))['timestamp-top'].hitRate).toBe(0);
  });
  it('a timestamp between system and history: tools hit again, the history is re-prefilled every turn', async () => {
    const by = await layouts(1);
    const mid = by['timestamp-after-tools'];
    const best = by['tools-first'];
    expect(mid.toolTokensPrefilled).toBe(best.toolTokensPrefilled); // the block prefilled once
    // From turn 2 on every turn re-prefills more than the one before: the whole, growing history.
    for (let t = 2; t < mid.turns.length; t++) {
      expect(mid.turns[t].prefillTokens).toBeGreaterThan(mid.turns[t - 1].prefillTokens);
      expect(mid.turns[t].prefillTokens).toBeGreaterThan(best.turns[t].prefillTokens);
    }
  });
  it('one tool added mid-session: one spike, then hits again; re-sorted tools spike on every turn', async () => {
    const by = await layouts(2);
    const added = by['tool-added'];
    const best = by['tools-first'];
    const at = Number(LAYOUT_TRY[2].set?.changeTurn);
    added.turns.forEach((t, i) => {
      const turn = i + 1;
      if (turn === at) expect(t.prefillTokens).toBeGreaterThan(5 * best.turns[i].prefillTokens);
      else if (turn > 1) expect(t.prefillTokens).toBeLessThan(1.1 * best.turns[i].prefillTokens);
    });
    by['tools-resorted'].turns.slice(1).forEach((t, i) => {
      expect(t.prefillTokens).toBeGreaterThan(5 * best.turns[i + 1].prefillTokens);
    });
  });
  it('tools after the history: the tool block is re-prefilled every turn', async () => {
    const by = await layouts(3);
    expect(by['tools-after-history'].toolTokensPrefilled).toBe(
      LAYOUT_DEFAULTS.turns * by['tools-first'].toolTokensPrefilled,
    );
  });
});
