/**
 * 07.06's tool-latency markers: the short forms a phone's chart draws where the whole labels would cross the
 * neighbouring rules (kit markerPlacement.ts), and the point on the time-share line in ink (its colour against
 * that line, for colour-blind readers too: tests/series-hues.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { TOOL_LATENCY_MARKS } from '../src/sim/engine/catalog/pauses';
import { latencyMarkers, publishedMarkName } from '../src/widgets/tool-pause/ToolLatency';
import { toolLatencyArgs, toolLatencySchema } from '../src/widgets/tool-pause/schema';
import { pauseMethods, type ToolLatencyResponse } from '../src/worker/pauseMethods';
import { defaultValues } from '../src/state/paramSchema';

describe('07.06 tool latency markers', () => {
  it('names a published mark by its source alone, and leaves a figure alone', () => {
    expect(publishedMarkName('Claude 129 ms')).toBe('Claude');
    expect(publishedMarkName('Codex 626 ms')).toBe('Codex');
    expect(publishedMarkName('Dynamo: 2 s')).toBe('Dynamo');
    expect(publishedMarkName('30 s')).toBeUndefined();
    expect(publishedMarkName('p90 21 min')).toBeUndefined();
    // Every name is the start of its label, so the short form reads as the whole one cut.
    for (const marks of Object.values(TOOL_LATENCY_MARKS))
      for (const m of marks) {
        const name = publishedMarkName(m.label);
        if (name) expect(m.label.startsWith(name)).toBe(true);
      }
  });

  it('gives the coding mix’s medians and the TTL short forms; the share of time at 1 min is in ink', () => {
    const r = (pauseMethods.toolLatency as (a: unknown) => ToolLatencyResponse)(
      toolLatencyArgs(defaultValues(toolLatencySchema)),
    );
    const { cdf, share } = latencyMarkers(r, 2);
    expect(cdf.map((m) => m.shortLabel)).toEqual(['Claude', 'Codex', 'τ = 2 s']);
    expect(cdf.map((m) => m.label)).toEqual([
      'Claude 129 ms',
      'Codex 626 ms',
      expect.stringMatching(/^τ = 2 s: /),
    ]);
    const point = share.find((m) => m.kind === 'point')!;
    expect(point.tone).toBe('fg');
  });
});
