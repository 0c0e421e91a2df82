/**
 * Two blues hard to tell apart (instructor review): no chart of lessons 07.03, 07.06 and 07.07 draws the palette's
 * blue (slot 0) and sky blue (slot 5) for two things a student tells apart; where slot order would, the series the
 * lesson compares take the palette's most distinct hues.
 */
import { describe, expect, it } from 'vitest';
import { DISTINCT_SLOTS, distinctColor, seriesColor } from '../src/widgets/kit/charts/theme';
import { sessionColor, sessionShapeName } from '../src/widgets/cache-router/sessionStyle';
import { SESSION_COLOURS } from '../src/widgets/kv-hierarchy/layout';
import { PAUSE_POLICY_COLORS, tradeOff } from '../src/widgets/tool-pause/arenaData';
import { LAYOUT_COLORS } from '../src/widgets/tool-schema/ToolBlockLayout';
import { POLICY_COLORS } from '../src/widgets/cache-router/RouterSweep';
import { PAUSE_POLICIES, type PausePolicyId } from '../src/sim/lessons/pauseLabSetup';
import { LAYOUTS } from '../src/sim/lessons/toolLayouts';
import type { PauseRun } from '../src/sim/lessons/pauseLab';

const BLUE = seriesColor(0);
const SKY = seriesColor(5);
const VERMILLION = seriesColor(1);

/** The colours of a chart's series, each once, and none of them sky blue beside blue. */
function expectApart(colors: readonly string[]) {
  expect(new Set(colors).size).toBe(colors.length);
  expect(colors.includes(BLUE) && colors.includes(SKY)).toBe(false);
}

describe('series hues', () => {
  it('the kit’s hues for marks drawn many at a time leave sky blue out and repeat only after all the others', () => {
    expect(DISTINCT_SLOTS).not.toContain(5);
    const first = Array.from({ length: DISTINCT_SLOTS.length }, (_, i) => distinctColor(i));
    expectApart(first);
    expect(distinctColor(DISTINCT_SLOTS.length)).toBe(distinctColor(0));
    expect(distinctColor(-1)).toBe(distinctColor(DISTINCT_SLOTS.length - 1));
  });

  it('07.03’s animated router: no session is sky blue, and no two of the first 28 share colour and shape', () => {
    const seen = new Set<string>();
    for (let s = 0; s < 64; s++) {
      expect(sessionColor(s)).not.toBe(SKY);
      if (s < 28) {
        const key = `${sessionColor(s)} ${sessionShapeName(s)}`;
        expect(seen.has(key), `S${s + 1}`).toBe(false);
        seen.add(key);
      }
    }
    expect(sessionShapeName(0)).toBe('circle');
    expect(sessionShapeName(DISTINCT_SLOTS.length)).toBe('square');
    expectApart(Object.values(POLICY_COLORS));
  });

  it('07.06’s pages (the hierarchy canvas) colour sessions in the same seven hues', () => {
    expect(SESSION_COLOURS).toBe(DISTINCT_SLOTS.length);
  });

  it('07.06’s trade-off chart: hold and TTL then offload in blue and vermillion, every policy its own hue', () => {
    expect(Object.keys(PAUSE_POLICY_COLORS).sort()).toEqual([...PAUSE_POLICIES].sort());
    expectApart(Object.values(PAUSE_POLICY_COLORS));
    expect(PAUSE_POLICY_COLORS.hold).toBe(BLUE);
    expect(PAUSE_POLICY_COLORS['ttl-offload']).toBe(VERMILLION);
    // The chart's series carry them, whatever subset of the policies has streamed in.
    const run = (policy: PausePolicyId, gb: number, p90: number) =>
      ({
        summary: {
          policy,
          idlePinnedBlocks: gb,
          idleCachedBlocks: 0,
          resumes: { ttft: { p90 } },
        },
      }) as unknown as PauseRun;
    const t = tradeOff([run('hold', 20, 0.3), run('ttl-offload', 2, 0.5)], 1e9, 'hold');
    expect(t.series.map((s) => s.color)).toEqual([BLUE, VERMILLION]);
  });

  it('07.07’s layouts: the best (tools first) and the worst (timestamp on top) apart, every layout its own hue', () => {
    expect(Object.keys(LAYOUT_COLORS).sort()).toEqual([...LAYOUTS].sort());
    expectApart(Object.values(LAYOUT_COLORS));
    expect(LAYOUT_COLORS['tools-first']).toBe(BLUE);
    expect(LAYOUT_COLORS['timestamp-top']).not.toBe(SKY);
    // The tool added mid-session lies on tools-first but for its spike: a hue far from blue.
    expect(LAYOUT_COLORS['tool-added']).toBe(VERMILLION);
  });
});
