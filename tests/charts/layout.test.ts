import { describe, expect, it } from 'vitest';
import {
  legendLayout,
  LEGEND_LINE,
  SEMIBOLD_WIDTH,
  textWidth,
  wrapLabel,
} from '../../src/widgets/kit/charts/layout';
import { xRuleLabelPlace } from '../../src/widgets/kit/charts/Markers';

describe('wrapLabel', () => {
  const narrow = (s: string) => textWidth(s, 11) * 0.7;

  it('keeps a label that fits on one line', () => {
    expect(wrapLabel('hold', 100)).toEqual(['hold']);
  });

  it('breaks between words', () => {
    const s = 'TPOT charged after the step';
    expect(wrapLabel(s, narrow(s))).toEqual(['TPOT charged after', 'the step']);
  });

  it('breaks after an arrow, a slash or a hyphen, keeping it on the first line', () => {
    expect(wrapLabel('TTL→offload', narrow('TTL→offload'))).toEqual(['TTL→', 'offload']);
    expect(wrapLabel('write-through', narrow('write-through'))).toEqual(['write-', 'through']);
    expect(wrapLabel('prefill/decode', narrow('prefill/decode'))).toEqual(['prefill/', 'decode']);
  });

  it('never draws a line wider than it is given, and keeps every character when two lines suffice', () => {
    for (const s of [
      'Cache-aware · TTL→offload',
      'write-through to DRAM',
      'a b c d e f g h',
      'TTL→offload',
    ]) {
      for (const w of [30, 45, 60, 90]) {
        const lines = wrapLabel(s, w);
        expect(lines.length).toBeLessThanOrEqual(2);
        for (const l of lines)
          expect(textWidth(l, 11)).toBeLessThanOrEqual(Math.max(w, textWidth(l[0] + '…', 11)));
        if (!lines.some((l) => l.endsWith('…')))
          expect(lines.join('').replace(/ /g, '')).toBe(s.replace(/ /g, ''));
      }
    }
  });
});

describe('legendLayout', () => {
  const long = 'all-reduce and overhead (no kernel changes these)';

  it('gives a label wider than the legend a second line, and its row the height of both', () => {
    const { items, height } = legendLayout(['matmuls', 'attention', long, 'after'], 300);
    expect(items[2].lines).toHaveLength(2);
    expect(items[2].lines.join(' ')).toBe(long);
    // The item after it starts below both of its lines.
    expect(items[3].y).toBeGreaterThanOrEqual(items[2].y + 18 + LEGEND_LINE);
    expect(height).toBeGreaterThanOrEqual(items[3].y + 18);
  });

  it('keeps one line per label, and rows of one-line height, when everything fits', () => {
    const { items, height } = legendLayout(['a', 'b', long], 1000);
    expect(items.map((it) => it.lines.length)).toEqual([1, 1, 1]);
    expect(height).toBe(18);
  });
});

describe('xRuleLabelPlace', () => {
  it('puts a rule’s label right of it in the left part of the plot, left of it in the right part', () => {
    expect(xRuleLabelPlace(50, 40, 300)).toEqual({ x: 54, anchor: 'start' });
    expect(xRuleLabelPlace(250, 40, 300)).toEqual({ x: 246, anchor: 'end' });
  });

  it('takes the side with room when the preferred one has none', () => {
    // A rule in the left part whose label does not fit on its right (170 + 4 + 140 > 300) goes on its left.
    expect(xRuleLabelPlace(170, 140, 300)).toEqual({ x: 166, anchor: 'end' });
  });

  it('keeps a label wider than either side inside the plot, never over the y axis (07.12’s “N* = 16” on a phone)', () => {
    const place = xRuleLabelPlace(120, 150, 230);
    expect(place.anchor).toBe('start');
    expect(place.x).toBeGreaterThanOrEqual(0);
    expect(place.x + 150).toBeLessThanOrEqual(230);
  });
});

describe('SEMIBOLD_WIDTH', () => {
  // Widths of the lab's semibold (600) labels at 11 px, measured with getComputedTextLength in headless Chromium on
  // this machine's sans-serif (2026-12-07): the estimate times SEMIBOLD_WIDTH must not fall short of them by more
  // than 1%, where the regular estimate fell short by up to 17% and end labels ran past the chart's edge.
  const measured: [string, number][] = [
    ['Prompt TTFT', 79.8],
    ['p99 inter-token gap of the decodes', 219.1],
    ['Coding-agent steps (parallel calls)', 213.6],
    ['TTFT without chunking', 142.4],
    ['decode step alone', 113.6],
    ['Cache-aware', 79.8],
    ['τ = 2 s: 81.7%', 88.3],
  ];
  it('covers the measured semibold widths that the regular estimate fell short of', () => {
    for (const [label, width] of measured) {
      expect(textWidth(label, 11) * SEMIBOLD_WIDTH, label).toBeGreaterThanOrEqual(width * 0.99);
    }
    expect(measured.some(([label, width]) => textWidth(label, 11) < width * 0.9)).toBe(true);
  });
});
