import { describe, expect, it } from 'vitest';
import {
  clippedLength,
  labelBox,
  LABEL_PAD,
  markerLabelWidth,
  placeMarkerLabels,
  POINT_DOT_RADIUS,
  SYMBOL_RING_RADIUS,
  type LabelSpot,
  type PlacedMark,
} from '../../src/widgets/kit/charts/markerPlacement';

const W = 400;
const H = 240;

/** How many pixels of the polyline run inside the label's box. */
function lineInside(spot: LabelSpot, text: string, line: readonly { x: number; y: number }[]): number {
  const box = labelBox(spot, markerLabelWidth(text));
  let len = 0;
  for (let i = 1; i < line.length; i++)
    len += clippedLength(line[i - 1].x, line[i - 1].y, line[i].x, line[i].y, box);
  return len;
}

/** The two labels' texts overlap. */
function boxesOverlap(a: LabelSpot, ta: string, b: LabelSpot, tb: string): boolean {
  // The texts' boxes, without the padding labelBox keeps clear of lines (neighbouring rows' paddings touch).
  const A = labelBox(a, markerLabelWidth(ta));
  const B = labelBox(b, markerLabelWidth(tb));
  const p = LABEL_PAD;
  return A.x0 + p < B.x1 - p && B.x0 + p < A.x1 - p && A.y0 + p < B.y1 - p && B.y0 + p < A.y1 - p;
}

/** A CDF-like curve across the plot: flat near 0%, rising through the middle, flat near 100% at the right. */
const sCurve = Array.from({ length: 201 }, (_, i) => {
  const x = (i / 200) * W;
  return { x, y: H - H / (1 + Math.exp(-(x - 150) / 25)) };
});

describe('clippedLength', () => {
  const box = { x0: 0, y0: 0, x1: 10, y1: 10 };
  it('measures the part of a segment inside a box', () => {
    expect(clippedLength(-5, 5, 15, 5, box)).toBeCloseTo(10);
    expect(clippedLength(0, 0, 10, 10, box)).toBeCloseTo(Math.SQRT2 * 10);
    expect(clippedLength(-5, -5, -1, 20, box)).toBe(0);
    expect(clippedLength(2, 2, 4, 4, box)).toBeCloseTo(Math.SQRT2 * 2);
  });
});

describe('placeMarkerLabels', () => {
  it('keeps a label at its usual spot when nothing runs through it', () => {
    const marks: PlacedMark[] = [{ kind: 'x', px: 100, label: 'Mooncake agent 8.6k' }];
    const [spot] = placeMarkerLabels(marks, W, H, {
      lines: [
        [
          { x: 0, y: H - 1 },
          { x: W, y: H - 1 },
        ],
      ],
    });
    expect(spot).toEqual({ x: 104, y: 12, anchor: 'start' });
  });

  it('moves a vertical rule’s label off a curve that runs through its usual spot', () => {
    // At the top right of a rule at x = 190 the curve is already near 100%: the usual spot is crossed.
    const label = 'Mooncake agent 182';
    const marks: PlacedMark[] = [{ kind: 'x', px: 190, label }];
    const usual: LabelSpot = { x: 194, y: 12, anchor: 'start' };
    expect(lineInside(usual, label, sCurve)).toBeGreaterThan(5);
    const [spot] = placeMarkerLabels(marks, W, H, { lines: [sCurve] });
    expect(spot).not.toBeNull();
    expect(lineInside(spot!, label, sCurve)).toBe(0);
    // Still beside its rule, inside the plot.
    const box = labelBox(spot!, markerLabelWidth(label));
    expect(Math.min(Math.abs(box.x0 - 190), Math.abs(box.x1 - 190))).toBeLessThan(8);
    expect(box.y0).toBeGreaterThanOrEqual(0);
    expect(box.y1).toBeLessThanOrEqual(H + 2);
  });

  it('keeps two rules’ labels apart and off each other’s rules', () => {
    const a = 'Mooncake agent 8.6k';
    const b = 'Mooncake chat 12k';
    const rule = (x: number) => [
      { x, y: 0 },
      { x, y: H },
    ];
    // With room on both sides, neither label runs across the other's rule.
    const [sa, sb] = placeMarkerLabels(
      [
        { kind: 'x', px: 200, label: a },
        { kind: 'x', px: 220, label: b },
      ],
      W,
      H,
      { lines: [sCurve] },
    );
    expect(boxesOverlap(sa!, a, sb!, b)).toBe(false);
    expect(lineInside(sa!, a, rule(220))).toBe(0);
    expect(lineInside(sb!, b, rule(200))).toBe(0);
    expect(lineInside(sa!, a, sCurve)).toBe(0);
    expect(lineInside(sb!, b, sCurve)).toBe(0);
    // Two published means close together at the plot's left (07.01's prompt lengths): the first label has no room
    // left of its rule, and right of it would cross the second rule; it runs up along its rule instead, in the strip
    // between the two. The labels stay apart, off the curve and off each other's rules.
    const [na, nb] = placeMarkerLabels(
      [
        { kind: 'x', px: 30, label: a },
        { kind: 'x', px: 50, label: b },
      ],
      W,
      H,
      { lines: [sCurve] },
    );
    expect(boxesOverlap(na!, a, nb!, b)).toBe(false);
    expect(lineInside(na!, a, sCurve)).toBe(0);
    expect(lineInside(nb!, b, sCurve)).toBe(0);
    expect(na!.alongRule).toBe(true);
    expect(lineInside(na!, a, rule(50))).toBe(0);
    expect(nb!.alongRule).toBeUndefined();
    expect(lineInside(nb!, b, rule(30))).toBe(0);
  });

  it('puts a point’s label in the corner the curve leaves free', () => {
    // A falling curve through the point: above-right is crossed by nothing, but a flat line at the top is.
    const falling = Array.from({ length: 101 }, (_, i) => ({
      x: i * 4,
      y: 10 + ((i * 4) / W) ** 3 * (H - 20),
    }));
    const flatTop = [
      { x: 0, y: 8 },
      { x: W, y: 8 },
    ];
    const p = falling[75];
    const label = '88.7%';
    const marks: PlacedMark[] = [{ kind: 'point', px: p.x, py: p.y, label }];
    const [spot] = placeMarkerLabels(marks, W, H, { lines: [falling, flatTop] });
    expect(lineInside(spot!, label, falling)).toBe(0);
    expect(lineInside(spot!, label, flatTop)).toBe(0);
  });

  it('keeps a vertical rule’s label clear of a point marker and its label', () => {
    const marks: PlacedMark[] = [
      { kind: 'x', px: 200, label: 'N = 120' },
      { kind: 'point', px: 200, py: 14, label: '88.7%' },
    ];
    const [rule, point] = placeMarkerLabels(marks, W, H);
    expect(boxesOverlap(rule!, 'N = 120', point!, '88.7%')).toBe(false);
    const ruleBox = labelBox(rule!, markerLabelWidth('N = 120'));
    const dot = { x0: 194, y0: 8, x1: 206, y1: 20 };
    const hitsDot = ruleBox.x0 < dot.x1 && dot.x0 < ruleBox.x1 && ruleBox.y0 < dot.y1 && dot.y0 < ruleBox.y1;
    expect(hitsDot).toBe(false);
  });

  it('takes a label’s short form where the whole one cannot get clear, and only there', () => {
    // 07.01's output lengths on a phone: two published means 28 px apart on a 280-px plot, a CDF rising through them.
    const w = 280;
    const cdf = Array.from({ length: 201 }, (_, i) => {
      const x = (i / 200) * w;
      return { x, y: H - H / (1 + Math.exp(-(x - w / 2) / 20)) };
    });
    const agentRule = [
      { x: 151, y: 0 },
      { x: 151, y: H },
    ];
    const chat = { kind: 'x', px: 179, label: 'Mooncake chat 343', shortLabel: 'chat 343' } as const;
    const agent = { kind: 'x', px: 151, label: 'Mooncake agent 182', shortLabel: 'agent 182' } as const;
    // The whole label has room across its rule on neither side: without a short form it runs up along the rule,
    // clear of the other rule and of the curve.
    const [whole] = placeMarkerLabels([{ ...chat, shortLabel: undefined }, agent], w, H, { lines: [cdf] });
    expect(whole!.short).toBeUndefined();
    expect(whole!.alongRule).toBe(true);
    expect(lineInside(whole!, chat.label, agentRule)).toBe(0);
    expect(lineInside(whole!, chat.label, cdf)).toBe(0);
    // With one, its short form fits across, right of the rule, clear of the other rule and of the curve: text across
    // the rule is tried before text along it.
    const [short, agentSpot] = placeMarkerLabels([chat, agent], w, H, { lines: [cdf] });
    expect(short!.short).toBe(true);
    expect(short!.alongRule).toBeUndefined();
    expect(lineInside(short!, chat.shortLabel, agentRule)).toBe(0);
    expect(lineInside(short!, chat.shortLabel, cdf)).toBe(0);
    // The other label got clear whole, left of its rule: it keeps its whole text.
    expect(agentSpot!.short).toBeUndefined();
    expect(boxesOverlap(short!, chat.shortLabel, agentSpot!, agent.label)).toBe(false);
    // On a wide plot both get clear whole.
    const wide = placeMarkerLabels(
      [
        { ...chat, px: 300 },
        { ...agent, px: 100 },
      ],
      W,
      H,
      { lines: [sCurve] },
    );
    expect(wide.map((s) => s!.short)).toEqual([undefined, undefined]);
  });

  it('runs a label up along its rule where rules stand closer than its short form is wide', () => {
    // 07.06's tool latency on a phone: the published medians of Claude Code (129 ms) and Codex (626 ms) and the TTL
    // τ (2 s) 25 and 19 px apart on a log axis; "Codex" is wider than either gap.
    const w = 296;
    const h = 150;
    const marks: PlacedMark[] = [
      { kind: 'x', px: 78, label: 'Claude 129 ms', shortLabel: 'Claude' },
      { kind: 'x', px: 103, label: 'Codex 626 ms', shortLabel: 'Codex' },
      { kind: 'x', px: 122, label: 'τ = 2 s: 81.7%', shortLabel: 'τ = 2 s' },
    ];
    expect(markerLabelWidth('Codex')).toBeGreaterThan(25);
    const spots = placeMarkerLabels(marks, w, h);
    const text = (i: number) => (spots[i]!.short ? marks[i].shortLabel! : marks[i].label!);
    marks.forEach((m, i) => {
      for (const [j, other] of marks.entries()) {
        if (j === i || other.kind !== 'x') continue;
        const rule = [
          { x: other.px, y: 0 },
          { x: other.px, y: h },
        ];
        expect(lineInside(spots[i]!, text(i), rule), `${m.label} over the rule at ${other.px}`).toBe(0);
        if (j > i) expect(boxesOverlap(spots[i]!, text(i), spots[j]!, text(j))).toBe(false);
      }
    });
    // Codex's label runs along its rule, between Claude's and τ's; the others read across.
    expect(spots.map((s) => !!s!.alongRule)).toEqual([false, true, false]);
    // Along the rule, its text is one line wide beside the rule, and inside the plot.
    const box = labelBox(spots[1]!, markerLabelWidth(text(1)));
    expect(box.x1 - box.x0).toBeLessThan(20);
    expect(box.y0).toBeGreaterThanOrEqual(0);
    expect(box.y1).toBeLessThanOrEqual(h);
  });

  it('keeps a label wider than either side of its rule off its own rule: short across, else along it', () => {
    // 07.12's N* on a phone: the rule near the middle of a 270-px plot, its label wider than either side.
    const w = 270;
    const h = 240;
    const label = 'N* = 16: both SLOs met';
    const rule = [
      { x: 140, y: 0 },
      { x: 140, y: h },
    ];
    expect(markerLabelWidth(label)).toBeGreaterThan(w - 140);
    expect(markerLabelWidth(label)).toBeGreaterThan(140);
    // Kept inside the plot across the rule, it ran over its own rule; now it runs up along it.
    const [whole] = placeMarkerLabels([{ kind: 'x', px: 140, label }], w, h);
    expect(whole!.alongRule).toBe(true);
    expect(lineInside(whole!, label, rule)).toBe(0);
    // With a short form, that reads across, beside the rule.
    const [short] = placeMarkerLabels([{ kind: 'x', px: 140, label, shortLabel: 'N* = 16' }], w, h);
    expect(short!.short).toBe(true);
    expect(short!.alongRule).toBeUndefined();
    expect(lineInside(short!, 'N* = 16', rule)).toBe(0);
  });

  it('slides a horizontal rule’s label along its rule to the gap between a vertical rule and a line', () => {
    // 07.10's chunk trade-off on a phone: the gap SLO's rule, crossed by the chunk read out at a third of the plot and
    // by the rising gap curve near its right end; neither end nor the middle of the rule is clear.
    const w = 270;
    const h = 150;
    const label = 'p99 gap SLO 100 ms';
    const chunk = [
      { x: 90, y: 0 },
      { x: 90, y: h },
    ];
    const curve = [
      { x: 0, y: 140 },
      { x: 240, y: 130 },
      { x: 270, y: 10 },
    ];
    const marks: PlacedMark[] = [
      { kind: 'y', py: 100, label },
      { kind: 'x', px: 90 },
    ];
    const [spot] = placeMarkerLabels(marks, w, h, { lines: [curve] });
    expect(lineInside(spot!, label, chunk)).toBe(0);
    expect(lineInside(spot!, label, curve)).toBe(0);
    // On its rule still, right of the chunk's rule and left of the curve.
    expect(labelBox(spot!, markerLabelWidth(label)).x0).toBeGreaterThan(90);
    expect(labelBox(spot!, markerLabelWidth(label)).x1).toBeLessThan(247);
  });

  it('keeps a label clear of the ring round a series’ symbol, wider than a dot on a line', () => {
    expect(SYMBOL_RING_RADIUS).toBeGreaterThan(POINT_DOT_RADIUS);
    const label = 'write-through';
    const [spot] = placeMarkerLabels([{ kind: 'point', px: 200, py: 120, label, ringsSymbol: true }], W, H);
    const box = labelBox(spot!, markerLabelWidth(label));
    const r = SYMBOL_RING_RADIUS + 1;
    const ring = { x0: 200 - r, y0: 120 - r, x1: 200 + r, y1: 120 + r };
    const hitsRing = box.x0 < ring.x1 && ring.x0 < box.x1 && box.y0 < ring.y1 && ring.y0 < box.y1;
    expect(hitsRing).toBe(false);
  });

  it('gives no spot to a marker without a label or off its axis', () => {
    expect(placeMarkerLabels([{ kind: 'x', px: 10 }, null], W, H)).toEqual([null, null]);
  });

  it('still places a label when every spot is crossed, inside the plot', () => {
    // A zigzag over the whole plot: no clear spot; the label goes somewhere inside, not off the chart.
    const zigzag = Array.from({ length: 81 }, (_, i) => ({ x: i * 5, y: i % 2 ? 0 : H }));
    const [spot] = placeMarkerLabels([{ kind: 'x', px: 100, label: 'τ = 2 s' }], W, H, { lines: [zigzag] });
    const box = labelBox(spot!, markerLabelWidth('τ = 2 s'));
    expect(box.x0).toBeGreaterThanOrEqual(-2);
    expect(box.x1).toBeLessThanOrEqual(W + 2);
    expect(box.y0).toBeGreaterThanOrEqual(-2);
    expect(box.y1).toBeLessThanOrEqual(H + 2);
  });
});
