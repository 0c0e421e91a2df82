/**
 * Two blues hard to tell apart (instructor review): no chart of lessons 07.03, 07.06 and 07.07 draws the palette's
 * blue (slot 0) and sky blue (slot 5) for two things a student tells apart; where slot order would, the series the
 * lesson compares take the palette's most distinct hues. Nor does a chart draw a marker rule (a reference, a
 * threshold, a playhead) in a colour as close to a series beside it as blue is to sky blue: the accent blue rules
 * once beside the blue first series (07.01's Codex ratio, 07.06's TTL, 07.08's step, 07.05's break-even, 07.10's
 * first token, 07.11's payback) read as data. Checked in the light and the dark theme, from the modules' colours.
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
import { toneColor } from '../src/widgets/kit/charts/theme';
import type { Marker } from '../src/widgets/kit/charts/types';
import { REFERENCE_MARKS } from '../src/widgets/traffic-shape/TrafficShape';
import { latencyMarkers, latencySeries } from '../src/widgets/tool-pause/ToolLatency';
import { toolLatencyArgs, toolLatencySchema } from '../src/widgets/tool-pause/schema';
import { pauseMethods, type ToolLatencyResponse } from '../src/worker/pauseMethods';
import { stepMarkers } from '../src/widgets/structured-output/MaskStepper';
import { paybackMarkers } from '../src/widgets/context-compaction/Payback';
import { PAYBACK_DEFAULT_ARGS } from '../src/widgets/context-compaction/schema';
import { compactionPayback } from '../src/worker/compactionMethods';
import type { Metric } from '../src/sim/lessons/compactionPayback';
import { reloadMarkers } from '../src/widgets/kv-offload/ReloadOrRecompute';
import { RELOAD_DEFAULTS, reloadArgs } from '../src/widgets/kv-offload/schema';
import { reloadVsRecompute } from '../src/worker/offloadMethods';
import { FIRST_TOKEN_TONE } from '../src/widgets/long-prefill/TimelineChart';
import { GAP_RUN, GAP_WHOLE, PARTS } from '../src/widgets/long-prefill/timelinePanels';
import { defaultValues } from '../src/state/paramSchema';
import { asSeenWith, deltaE2000, resolveColor, VISIONS, type Theme, type Vision } from './colorDifference';

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

const THEMES: readonly Theme[] = ['light', 'dark'];
const difference = (a: string, b: string, theme: Theme, vision: Vision = 'typical') =>
  deltaE2000(asSeenWith(resolveColor(a, theme), vision), asSeenWith(resolveColor(b, theme), vision));
/** The palette's blue and sky blue, which instructors could not tell apart: a rule must differ from a series more. */
const TOO_CLOSE = Math.max(...THEMES.map((t) => difference(BLUE, SKY, t)));
/** The colours of the first n slots, the order a chart colours series that name none. */
const slots = (n: number) => Array.from({ length: n }, (_, i) => seriesColor(i));
/** A chart's series' colours: each its own, or its slot's. */
const colorsOf = (series: readonly { color?: string }[]) => series.map((s, i) => s.color ?? seriesColor(i));

/** Every rule (vertical or horizontal) of a chart further from every series it is drawn beside than TOO_CLOSE. */
function expectRulesApart(chart: string, markers: readonly Marker[], series: readonly string[]) {
  const rules = markers.filter((m) => m.kind === 'x' || m.kind === 'y');
  expect(rules.length, `${chart} draws a rule`).toBeGreaterThan(0);
  for (const m of rules)
    for (const color of series)
      for (const theme of THEMES)
        for (const vision of VISIONS)
          expect(
            difference(toneColor(m.tone), color, theme, vision),
            `${chart}: rule “${m.label ?? m.kind}” (${m.tone ?? 'default'} tone) beside ${color}, ${theme} theme, ${vision}`,
          ).toBeGreaterThan(TOO_CLOSE);
}

describe('marker rules apart from the series beside them', () => {
  it('the kit’s default marker ink is apart from every series hue; the accent blue was not', () => {
    const ink = toneColor(undefined);
    expect(ink).toBe(toneColor('fg'));
    // Grey (slot 6) has no hue: the ink's lightness sets it apart on white, and the charts beside grey are below.
    const hues = slots(8).filter((c) => c !== seriesColor(6));
    expectRulesApart('any chart', [{ kind: 'x', x: 0 }], hues);
    for (const theme of THEMES)
      expect(difference('var(--chart-accent)', BLUE, theme)).toBeLessThanOrEqual(TOO_CLOSE);
  });

  it('07.01’s traffic shape: the published references apart from the generated sessions and a loaded trace', () => {
    for (const [chart, markers] of Object.entries(REFERENCE_MARKS))
      expectRulesApart(chart, markers, slots(2));
  });

  it('07.06’s tool latency: the TTL and the published medians apart from every tool class', () => {
    const r = (pauseMethods.toolLatency as (a: unknown) => ToolLatencyResponse)(
      toolLatencyArgs(defaultValues(toolLatencySchema)),
    );
    const series = latencySeries(r);
    const markers = latencyMarkers(r, 30);
    expectRulesApart('every class’s CDF', markers.cdf, colorsOf(series.cdf));
    expectRulesApart('calls against tool time', markers.share, colorsOf(series.share));
  });

  it('07.06’s tool latency: the share of tool time at 1 min apart from the line it sits on, for colour-blind readers too', () => {
    const r = (pauseMethods.toolLatency as (a: unknown) => ToolLatencyResponse)(
      toolLatencyArgs(defaultValues(toolLatencySchema)),
    );
    const timeShare = colorsOf(latencySeries(r).share)[1];
    const points = latencyMarkers(r, 30).share.filter((m) => m.kind === 'point');
    expect(points).toHaveLength(1);
    for (const theme of THEMES)
      for (const vision of VISIONS)
        expect(
          difference(toneColor(points[0].tone), timeShare, theme, vision),
          `the point on the time-share line, ${theme} theme, ${vision} vision`,
        ).toBeGreaterThan(TOO_CLOSE);
    // The danger red it was drawn in, #c4261d, was closer than blue to sky blue to the vermillion for a deuteranope
    // (ΔE 5.9); the kit's red is now darker, and apart from every hue but grey for red–green colour-blind readers.
    expect(difference('#c4261d', timeShare, 'light', 'deutan')).toBeLessThanOrEqual(TOO_CLOSE);
    for (const theme of THEMES)
      for (const vision of VISIONS)
        for (const hue of slots(8).filter((c) => c !== seriesColor(6)))
          expect(
            difference(toneColor('danger'), hue, theme, vision),
            `${hue}, ${theme}, ${vision}`,
          ).toBeGreaterThan(TOO_CLOSE);
  });

  it('07.08’s mask stepper: the step shown apart from the allowed-tokens line', () => {
    expectRulesApart('allowed tokens per step', stepMarkers(200_019, 3, 12), slots(1));
  });

  it('07.11’s payback: where each policy pays back apart from the three policies’ lines', () => {
    const r = compactionPayback(PAYBACK_DEFAULT_ARGS);
    for (const metric of ['dollars', 'prefillSeconds', 'prefillTokens'] as Metric[])
      expectRulesApart(`cumulative ${metric}`, paybackMarkers(r, metric), slots(3));
  });

  it('07.05’s reload or recompute: the break-evens apart from the curves, the side curves shown too', () => {
    const r = reloadVsRecompute(reloadArgs(RELOAD_DEFAULTS));
    const markers = reloadMarkers(r);
    expectRulesApart('reload and recompute times', markers.times, slots(4));
    expectRulesApart('reload ÷ recompute', markers.ratio, slots(1));
  });

  it('07.10’s prefill timeline: the first token’s rule apart from the chunks, the decodes and the gap lines', () => {
    expectRulesApart(
      'the timeline',
      [{ kind: 'x', x: 0, tone: FIRST_TOKEN_TONE }],
      [PARTS.chunk.color, PARTS.decode.color, PARTS.paused.color, GAP_RUN.color, GAP_WHOLE.color],
    );
  });

  it('07.06’s trade-off: each policy’s point ringed, not covered, so its colour shows', () => {
    const run = (policy: PausePolicyId, gb: number, p90: number) =>
      ({
        summary: { policy, idlePinnedBlocks: gb, idleCachedBlocks: 0, resumes: { ttft: { p90 } } },
      }) as unknown as PauseRun;
    const t = tradeOff([run('hold', 20, 0.3), run('evict', 0, 9), run('ttl-evict', 2, 2)], 1e9, 'evict');
    expect(t.markers.map((m) => m.ringsSymbol)).toEqual([true, true, true]);
    // The ring still says which policy is chosen: ink for it, grey for the others.
    expect(t.markers.map((m) => m.tone)).toEqual(['muted', 'fg', 'muted']);
  });
});
