/**
 * The memory ladder as a picture: every tier at (KV capacity, bandwidth into HBM) on log–log axes, built from the
 * charts kit's pieces. A rule marks the bandwidth at which reloading a context takes as long as recomputing it
 * (shaded below: recompute is faster), another the bytes the node's agents need. Hover, tap or the arrow keys
 * read one tier out.
 */
import { shortName } from '../../sim/engine/catalog/names';
import { useCallback, useMemo, type Ref } from 'react';
import type { LadderTier } from '../../sim/lessons/memoryLadder';
import { formatBandwidth, formatBytesDecimal, formatCount, formatDuration } from '../../lib/format';
import { ChartShell } from '../kit/charts/ChartShell';
import { Legend } from '../kit/charts/Legend';
import { XYPlot } from '../kit/charts/XYPlot';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from '../kit/charts/Readout';
import { seriesColor, seriesSymbolPath } from '../kit/charts/theme';
import { useChartSize } from '../kit/charts/useChartSize';
import { xyLayout } from '../kit/charts/xyLayout';
import { r2, textWidth } from '../kit/charts/layout';
import { markerLabelWidth } from '../kit/charts/markerPlacement';
import type { AxisSpec, Marker } from '../kit/charts/types';

/** Series slot (colour + symbol) of each tier, fixed so a tier looks the same whatever is chosen. */
export const TIER_SLOT: Record<LadderTier['id'], number> = { hbm: 0, dram: 1, nvme: 2, remote: 3 };

const LABEL_FONT = 12;

/** Short tier names for point labels on a narrow chart. */
const SHORT: Record<LadderTier['id'], string> = { hbm: 'HBM', dram: 'DRAM', nvme: 'NVMe', remote: 'Pool' };

function decadeFloor(v: number): number {
  return 10 ** Math.floor(Math.log10(v));
}
function decadeCeil(v: number): number {
  return 10 ** Math.ceil(Math.log10(v));
}

/** A tier's path into HBM in words: "8 × PCIe Gen5 x16 (host↔GPU) at 50 GB/s". */
export function pathText(t: LadderTier): string {
  if (!t.hops.length) return 'in place (decode reads it at HBM bandwidth)';
  return t.hops.map((h) => `${h.count > 1 ? `${h.count} × ` : ''}${shortName(h.name)}`).join(' → ');
}

export interface LadderChartProps {
  tiers: readonly LadderTier[];
  breakEvenBandwidth: number;
  recomputeS: number;
  demandBytes: number;
  agents: number;
  title: string;
  ref?: Ref<SVGSVGElement>;
}

export function LadderChart({
  tiers,
  breakEvenBandwidth,
  recomputeS,
  demandBytes,
  agents,
  title,
  ref,
}: LadderChartProps) {
  const shown = useMemo(() => tiers.filter((t) => t.capacityBytes > 0 && t.bandwidth > 0), [tiers]);
  const names = useMemo(() => shown.map((t) => t.name), [shown]);
  const size = useChartSize({ aspect: 0.62, minHeight: 280, maxHeight: 460, legendLabels: names });
  const { width, height } = size;

  const axes = useMemo(() => {
    const xs = [...shown.map((t) => t.capacityBytes), ...(demandBytes > 0 ? [demandBytes] : [])];
    const ys = [
      ...shown.map((t) => t.bandwidth),
      ...(Number.isFinite(breakEvenBandwidth) && breakEvenBandwidth > 0 ? [breakEvenBandwidth] : []),
    ];
    const xDomain: [number, number] = xs.length
      ? [decadeFloor(Math.min(...xs) / 2), decadeCeil(Math.max(...xs) * 2)]
      : [1e9, 1e14];
    const yDomain: [number, number] = ys.length
      ? [decadeFloor(Math.min(...ys) / 2), decadeCeil(Math.max(...ys) * 2)]
      : [1e9, 1e14];
    const x: AxisSpec = {
      label: 'KV capacity',
      scale: 'log',
      domain: xDomain,
      format: (v) => formatBytesDecimal(v),
    };
    const y: AxisSpec = {
      label: 'Bandwidth into HBM',
      scale: 'log',
      domain: yDomain,
      format: (v) => formatBandwidth(v),
    };
    return { x, y, xDomain, yDomain };
  }, [shown, demandBytes, breakEvenBandwidth]);
  const L = useMemo(
    () =>
      xyLayout({
        width,
        height,
        x: axes.x,
        y: axes.y,
        xExtent: axes.xDomain,
        yExtent: axes.yDomain,
        legendLabels: names,
        xNice: false,
      }),
    [width, height, axes, names],
  );
  const { xScale, yScale, innerWidth, innerHeight } = L;
  const pts = useMemo(
    () => shown.map((t) => ({ t, px: r2(xScale(t.capacityBytes)), py: r2(yScale(t.bandwidth)) })),
    [shown, xScale, yScale],
  );

  const indexAt = useCallback(
    (px: number, py: number) => {
      let best: number | null = null;
      let bestD = Infinity;
      pts.forEach((p, i) => {
        const d = Math.hypot(p.px - px, p.py - py);
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      });
      return best;
    },
    [pts],
  );
  const ro = useReadout(pts.length, indexAt);

  const markers: Marker[] = [];
  if (Number.isFinite(breakEvenBandwidth) && breakEvenBandwidth > 0)
    markers.push({
      kind: 'y',
      y: breakEvenBandwidth,
      label: `reload = recompute (${formatDuration(recomputeS)}): ${formatBandwidth(breakEvenBandwidth)}`,
      // On a phone the whole label is wider than either side of the agents' rule, which it would cross: the figure
      // alone, under which the shaded region's label says what it means.
      shortLabel: formatBandwidth(breakEvenBandwidth),
      tone: 'danger',
    });
  if (demandBytes > 0)
    markers.push({
      kind: 'x',
      x: demandBytes,
      label: `${formatCount(agents)} agents: ${formatBytesDecimal(demandBytes)}`,
      tone: 'muted',
    });
  const beY =
    Number.isFinite(breakEvenBandwidth) && breakEvenBandwidth > 0 ? L.yPos.clamp(breakEvenBandwidth) : null;
  const slow = slowRegionLabel(innerWidth, demandBytes > 0 ? xScale(demandBytes) : null);

  const legendItems = L.legend.items.map((it) => ({ ...it, index: TIER_SLOT[shown[it.index].id] }));

  let readout = null;
  let live = '';
  if (ro.index !== null && pts[ro.index]) {
    const { t, px, py } = pts[ro.index];
    const rows: ReadoutRow[] = [
      { label: 'KV capacity', value: formatBytesDecimal(t.capacityBytes), index: TIER_SLOT[t.id] },
      { label: 'Bandwidth into HBM', value: formatBandwidth(t.bandwidth) },
      { label: 'Contexts it holds', value: formatCount(t.contexts) },
      {
        label: 'Reload one context',
        value: t.id === 'hbm' ? '0 (already there)' : formatDuration(t.reloadS),
      },
    ];
    const head = t.name;
    readout = (
      <Readout
        x={px}
        y={py}
        crosshair={false}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={head}
        rows={rows}
        swatch="symbol"
      />
    );
    live = readoutSentence(head, rows);
  }

  // Point labels (the tier's name and what it holds), placed greedily beside each point where they collide with
  // nothing already drawn: other labels, the points, the rules' labels. The least-overlapping place otherwise.
  const labels = useMemo(() => {
    type Box = { x0: number; y0: number; x1: number; y1: number };
    const area = (a: Box, b: Box) =>
      Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) *
      Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
    const taken: Box[] = pts.map((p) => ({ x0: p.px - 8, y0: p.py - 8, x1: p.px + 8, y1: p.py + 8 }));
    const ruleFont = 11;
    if (demandBytes > 0) {
      const px = L.xPos.at(demandBytes);
      const text = `${formatCount(agents)} agents: ${formatBytesDecimal(demandBytes)}`;
      const w = textWidth(text, ruleFont) * 1.05;
      if (px !== null) {
        const right = px > innerWidth * 0.62 || px + 4 + w > innerWidth;
        taken.push({ x0: right ? px - 4 - w : px + 4, y0: 0, x1: right ? px - 4 : px + 4 + w, y1: 16 });
      }
    }
    if (beY !== null) {
      const text = `reload = recompute (${formatDuration(recomputeS)}): ${formatBandwidth(breakEvenBandwidth)}`;
      const w = textWidth(text, ruleFont) * 1.05;
      taken.push({ x0: innerWidth - 4 - w, y0: beY - 17, x1: innerWidth, y1: beY + 2 });
    }
    // On a narrow chart one short line per point ("DRAM 30"), else the name over what it holds.
    const narrow = innerWidth < 420;
    return pts.map(({ t, px, py }) => {
      const l1 = narrow ? `${SHORT[t.id]} ${formatCount(t.contexts)}` : t.name;
      const l2 = narrow ? '' : `holds ${formatCount(t.contexts)}`;
      const w = Math.max(textWidth(l1, LABEL_FONT) * 1.08, textWidth(l2, LABEL_FONT - 1));
      const candidates = [
        { x: px + 11, y: py - 15, anchor: 'start' as const },
        { x: px + 11, y: py + 15, anchor: 'start' as const },
        { x: px - 11, y: py - 15, anchor: 'end' as const },
        { x: px - 11, y: py + 15, anchor: 'end' as const },
        { x: px + 11, y: py + 1, anchor: 'start' as const },
        { x: px - 11, y: py + 1, anchor: 'end' as const },
      ].map((c) => {
        const box = {
          x0: c.anchor === 'start' ? c.x : c.x - w,
          x1: c.anchor === 'start' ? c.x + w : c.x,
          y0: c.y - 11,
          y1: c.y + (narrow ? 3 : 17),
        };
        const outside = box.x0 < 0 || box.x1 > innerWidth || box.y0 < 0 || box.y1 > innerHeight ? 1e6 : 0;
        const overlap = taken.reduce((sum, b) => sum + area(box, b), 0);
        return { ...c, box, cost: outside + overlap };
      });
      const best = candidates.reduce((a, b) => (b.cost < a.cost ? b : a));
      taken.push(best.box);
      return { t, x: best.x, y: best.y, anchor: best.anchor, l1, l2 };
    });
  }, [pts, demandBytes, agents, beY, recomputeS, breakEvenBandwidth, innerWidth, innerHeight, L.xPos]);

  return (
    <ChartShell
      kind="memory-ladder"
      size={size}
      title={title}
      description="Each tier of the KV memory hierarchy as a point: how many bytes of KV it can hold (across) against how fast its path brings them back into HBM (up). Both axes logarithmic. Shaded: bandwidths at which recomputing a context is faster than reloading it."
      svgRef={ref}
      empty={!pts.length}
      emptyMessage="No tier holds KV"
      interactive
      keyboardHint="Use the left and right arrow keys to read the tiers; Escape hides the read-out."
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      <Legend items={legendItems} x={4} y={4} kind="symbol" />
      <XYPlot
        layout={L}
        markers={markers}
        under={
          beY !== null ? (
            <g data-region="recompute-faster">
              <rect
                className="ladder-slow-band"
                x={0}
                y={beY}
                width={innerWidth}
                height={Math.max(0, innerHeight - beY)}
              />
              {innerHeight - beY > 22 ? (
                <text
                  className="chart-marker-label ladder-slow-label"
                  x={slow.x}
                  y={innerHeight - 8}
                  textAnchor="start"
                >
                  {slow.text}
                </text>
              ) : null}
            </g>
          ) : null
        }
        over={
          <>
            <g className="chart-series">
              {pts.map(({ t, px, py }, i) => (
                <g key={t.id} data-tier={t.id} data-x={px} data-y={py}>
                  <path
                    className="chart-symbol ladder-point"
                    transform={`translate(${px},${py})`}
                    d={seriesSymbolPath(TIER_SLOT[t.id], ro.index === i ? 260 : 150)}
                    style={{ fill: seriesColor(TIER_SLOT[t.id]) }}
                  />
                </g>
              ))}
            </g>
            <g className="ladder-labels" aria-hidden="true">
              {labels.map((l) => (
                <text
                  key={l.t.id}
                  className="ladder-label"
                  x={r2(l.x)}
                  y={r2(l.y)}
                  textAnchor={l.anchor as 'start' | 'end'}
                >
                  <tspan className="ladder-label-name" x={r2(l.x)}>
                    {l.l1}
                  </tspan>
                  {l.l2 ? (
                    <tspan className="ladder-label-detail" x={r2(l.x)} dy="1.15em">
                      {l.l2}
                    </tspan>
                  ) : null}
                </text>
              ))}
            </g>
          </>
        }
        readout={readout}
        overlay={ro.overlay}
      />
    </ChartShell>
  );
}

const SLOW_LABELS = ['recompute is faster down here', 'recompute is faster', 'recompute faster'] as const;

/**
 * Where the shaded region's label goes: left in the region, else right of the agents' rule, whole or short, so that
 * it does not run across the rule (on a phone the whole label is wider than the part left of it).
 */
export function slowRegionLabel(innerWidth: number, rulePx: number | null): { x: number; text: string } {
  for (const text of SLOW_LABELS) {
    const w = markerLabelWidth(text);
    if (rulePx === null || 6 + w <= rulePx - 4) return { x: 6, text };
    if (rulePx + 6 + w <= innerWidth - 4) return { x: rulePx + 6, text };
  }
  return { x: 6, text: SLOW_LABELS[SLOW_LABELS.length - 1] };
}
