/**
 * Lesson 07.05's "Try this" items (which its guided tour plays): each direction an item claims, computed by the core
 * with the state the item sets (the widgets' TRY_THIS over their schema defaults).
 */
import { describe, expect, it } from 'vitest';
import { createElement, Fragment } from 'react';
import { renderedText } from './lessonText';
import { offloadMethods } from '../src/worker/offloadMethods';
import { isCannotRun } from '../src/sim/engine/cannotRun';
import { minBandwidthByModel } from '../src/worker/minBandwidthMethods';
import {
  MIN_BW_DEFAULTS,
  minBwArgs,
  minBwSchema,
  RELOAD_DEFAULTS,
  reloadArgs,
  reloadSchema,
  SMALL_MODEL_ITEM,
  smallModelArgs,
  type MinBwValues,
  type ReloadValues,
} from '../src/widgets/kv-offload/schema';
import { bandText } from '../src/widgets/kv-offload/figures';
import { formatNumber } from '../src/lib/format';
import { ServicesProvider, type Services } from '../src/app/services';
import { TRY_THIS as RELOAD_TRY } from '../src/widgets/kv-offload/ReloadOrRecompute';
import { TRY_THIS as MIN_BW_TRY } from '../src/widgets/kv-offload/MinLinkBandwidth';
import type { TryItem } from '../src/widgets/kit/stage';
import { expectValidSets } from './try-this';

/** As the widget calls it (offloadMethods: a replica with no room for KV is a "cannot run", which no item may lead to). */
const reload = (item?: TryItem) => {
  const r = offloadMethods.reloadVsRecompute(
    reloadArgs({ ...RELOAD_DEFAULTS, ...(item?.set ?? {}) } as ReloadValues),
  );
  if (isCannotRun(r)) throw new Error(`the item leads to "cannot run": ${r.reason}`);
  return r;
};
const minBw = (item?: TryItem) =>
  minBandwidthByModel(minBwArgs({ ...MIN_BW_DEFAULTS, ...(item?.set ?? {}) } as MinBwValues));
/** The lower chart: reload time ÷ recompute time over the curve's prefix lengths. */
const ratios = (r: ReturnType<typeof reload>) => r.curve.reload.map((x, i) => x / r.curve.recompute[i]);

describe('Reload or recompute: Try this', () => {
  const base = reload();
  it('every item sets only parameters of the widget’s schema, to values its controls offer', () => {
    expectValidSets(RELOAD_TRY, reloadSchema);
    expect(base.breakEven.regime).toBe('recompute-wins-between');
  });

  it('the “from” values the items name are the defaults: 8 × H100 (the DeepSeek-V3 and 16-GPU items)', () => {
    expect(RELOAD_DEFAULTS.gpus).toBe(8);
    expect(RELOAD_DEFAULTS.accelerator).toBe('h100-sxm');
    expect(RELOAD_TRY[5].set?.gpus).toBe(16);
  });

  it('0 · PCIe Gen5 per GPU: the band vanishes and reload wins everywhere by a wide margin', () => {
    const r = reload(RELOAD_TRY[0]);
    expect(r.breakEven.regime).toBe('reload-always-wins');
    expect(Math.max(...ratios(r))).toBeLessThan(0.1);
  });

  it('1 · one 100G NIC: still everywhere, but only just (the ratio stays under 1×, within a factor of two of it)', () => {
    const r = reload(RELOAD_TRY[1]);
    expect(r.breakEven.regime).toBe('reload-always-wins');
    expect(Math.max(...ratios(r))).toBeLessThan(1);
    expect(Math.max(...ratios(r))).toBeGreaterThan(0.5);
    expect(Math.max(...ratios(r))).toBeGreaterThan(Math.max(...ratios(reload(RELOAD_TRY[0]))));
  });

  it('2 · DeepSeek-V3 on 8 × B200 with the one drive: few bytes per token, but eight copies; recompute wins past a few hundred tokens', () => {
    const r = reload(RELOAD_TRY[2]);
    expect(r.model.kvBytesPerToken).toBeLessThan(base.model.kvBytesPerToken / 4);
    expect(r.model.kvCopies).toBe(8);
    expect(base.model.kvCopies).toBe(1);
    expect(r.breakEven.regime).toBe('reload-wins-below');
    expect(r.breakEven.crossings[0]).toBeGreaterThan(100);
    expect(r.breakEven.crossings[0]).toBeLessThan(1000);
    // "its weights do not fit in 8 H100s"
    expect(() => reload({ text: null, set: { model: 'deepseek-v3' } })).toThrow(/cannot run/);
  });

  it('3 · Llama 3.1 8B on one B200 (kept from the item before): cheaper to recompute than the 70B, with KV out of proportion to its FLOPs; recompute wins a band with reload on either side, and on one H100 none', () => {
    // "Keep the B200": the item sets it itself, since "Show me" resets what the item before set.
    expect(RELOAD_TRY[3].set).toEqual(SMALL_MODEL_ITEM);
    expect(RELOAD_TRY[3].set?.accelerator).toBe(RELOAD_TRY[2].set?.accelerator);
    const r = reload(RELOAD_TRY[3]);
    expect(r.prefix.recompute).toBeLessThan(base.prefix.recompute);
    const rows = minBw().rows;
    const row = (id: string) => rows.find((m) => m.id === id)!;
    expect(row('llama-3.1-8b').kvBytesPerFlop).toBeGreaterThan(row('llama-3.1-70b').kvBytesPerFlop);
    // The band the text names, computed as the widget computes it.
    expect(r.breakEven.regime).toBe('recompute-wins-between');
    expect(r.segments.map((x) => x.faster)).toEqual(['reload', 'recompute', 'reload']);
    const band = r.segments[1];
    expect(bandText(r)).toBe(
      `from ${formatNumber(Math.round(band.from), 6)} to ${formatNumber(Math.round(band.to), 6)} tokens`,
    );
    // The live figure renders its placeholder here: no simulation runs in a static render.
    const text = renderedText(
      createElement(ServicesProvider, {
        services: { sim: {} } as unknown as Services,
        children: RELOAD_TRY[3].text,
      }),
    );
    expect(text).toContain('Keep the B200');
    expect(text).toContain('on 1 GPU');
    // "On one H100, which recomputes more slowly, the drive wins at every length."
    const h100 = offloadMethods.reloadVsRecompute(smallModelArgs('h100-sxm'));
    if (isCannotRun(h100)) throw new Error(h100.reason);
    expect(h100.prefix.recompute).toBeGreaterThan(r.prefix.recompute);
    expect(h100.breakEven.regime).toBe('reload-always-wins');
  });

  it('4 · a 50 ms link: recompute wins the shortest prefixes, up to a few thousand tokens', () => {
    const r = reload(RELOAD_TRY[4]);
    expect(r.segments[0].faster).toBe('recompute');
    expect(r.breakEven.crossings.length).toBe(1);
    expect(r.breakEven.crossings[0]).toBeGreaterThan(1000);
    expect(r.breakEven.crossings[0]).toBeLessThan(10_000);
  });

  it('5 · 16 GPUs with the drive: recompute faster over two nodes’ NICs, two KV copies from one drive: recompute wins from a few hundred tokens on', () => {
    const r = reload(RELOAD_TRY[5]);
    expect(r.hardware.allReduce.scope).toBe('inter-node');
    expect(r.prefix.recompute).toBeLessThan(base.prefix.recompute);
    expect(r.model.kvCopies).toBe(2);
    expect(r.breakEven.regime).toBe('reload-wins-below');
    expect(r.breakEven.crossings[0]).toBeGreaterThan(100);
    expect(r.breakEven.crossings[0]).toBeLessThan(1_000);
    expect(r.breakEven.crossingsBeyondDomain[0]).toBeGreaterThan(r.breakEven.maxTokens);
  });
});

describe('Minimum link bandwidth: Try this', () => {
  const base = minBw();
  const bar = (r: ReturnType<typeof minBw>, id: string) => r.rows.find((m) => m.id === id)!.minBandwidth!;
  it('every item sets only parameters of the widget’s schema, to values its controls offer', () => {
    expectValidSets(MIN_BW_TRY, minBwSchema);
  });

  it('0 · Llama 3.1 405B needs the slowest link, Llama 3.1 8B the fastest; DeepSeek-V3 has the highest hatched bar', () => {
    const order = [...base.rows].sort((a, b) => a.minBandwidth! - b.minBandwidth!).map((m) => m.id);
    expect(order[0]).toBe('llama-3.1-405b');
    expect(order[order.length - 1]).toBe('llama-3.1-8b');
    const hatched = [...base.rows].sort((a, b) => b.alwaysWinsBandwidth! - a.alwaysWinsBandwidth!);
    expect(hatched[0].id).toBe('deepseek-v3');
    expect(hatched[0].kvCopies).toBe(8);
  });

  it('the “from” values the items name are the defaults: a 32 Ki-token prefix (to 128 Ki) and TP 8 (to 16)', () => {
    expect(MIN_BW_DEFAULTS.prefixTokens).toBe(32 * 1024);
    expect(MIN_BW_TRY[2].set?.prefixTokens).toBe(128 * 1024);
    // named as the slider reads them out, not as "32k to 128k"
    const text = renderedText(createElement(Fragment, null, MIN_BW_TRY[2].text));
    expect(text).toContain('from 32.8k tokens to 131k tokens');
    expect(MIN_BW_DEFAULTS.gpus).toBe(8);
    expect(MIN_BW_TRY[4].set?.gpus).toBe(16);
  });

  it('1 · FP8 halves every bar', () => {
    const r = minBw(MIN_BW_TRY[1]);
    for (const m of base.rows) expect(bar(r, m.id) / m.minBandwidth!).toBeCloseTo(0.5, 3);
  });

  it('2 · 128k: the solid bars fall, the hatched ones stay put', () => {
    const r = minBw(MIN_BW_TRY[2]);
    for (const m of base.rows) {
      expect(bar(r, m.id)).toBeLessThan(m.minBandwidth!);
      expect(r.rows.find((x) => x.id === m.id)!.alwaysWinsBandwidth).toBe(m.alwaysWinsBandwidth);
    }
  });

  it('3 · B200: every bar rises, nearly in proportion to G', () => {
    const r = minBw(MIN_BW_TRY[3]);
    const g = r.flops / base.flops;
    expect(g).toBeGreaterThan(1.5);
    for (const m of base.rows) {
      const up = bar(r, m.id) / m.minBandwidth!;
      expect(up).toBeGreaterThan(0.85 * g);
      expect(up).toBeLessThanOrEqual(g);
    }
  });

  it('4 · TP 16: G doubles, the all-reduces cross the NICs nearly as fast as NVLink, the KV is stored at least twice, every bar more than doubles', () => {
    const r = minBw(MIN_BW_TRY[4]);
    expect(r.flops / base.flops).toBeCloseTo(2, 6);
    for (const m of r.rows) expect(m.kvCopies).toBeGreaterThanOrEqual(2);
    const hatched = (x: ReturnType<typeof minBw>, id: string) =>
      x.rows.find((m) => m.id === id)!.alwaysWinsBandwidth!;
    for (const m of base.rows) {
      expect(bar(r, m.id)).toBeGreaterThan(2 * m.minBandwidth!);
      expect(hatched(r, m.id)).toBeGreaterThan(2 * m.alwaysWinsBandwidth!);
    }
  });
});
