/**
 * Where the KV sits over a run, stacked by the state of the session that owns it: HBM (running or queued
 * sessions, idle sessions pinned, idle sessions merely cached, finished sessions) over host DRAM (idle
 * sessions' blocks, others). Two panels in one SVG (so it exports whole), built from the charts kit's pieces;
 * every layer has a colour and a texture, and the read-out lists them all at the hovered time.
 */
import { PartPatterns, partFill } from '../kit/charts/patterns';
import { EntryLegend } from '../kit/charts/Legend';
import { useCallback, useMemo } from 'react';
import { area as d3area, curveLinear } from 'd3';
import { ChartShell, useSafeId } from '../kit/charts/ChartShell';
import { GridLines, XAxis, YAxis } from '../kit/charts/Axes';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from '../kit/charts/Readout';
import { useChartSize } from '../kit/charts/useChartSize';
import { axisTicks, durationAxis, makeScale, resolveDomain } from '../kit/charts/scales';
import { computeMargins, legendLayout, r2, X_TITLE_OFFSET } from '../kit/charts/layout';
import { PANEL_TITLE_BAND, PanelTitle, stackPanels } from '../kit/charts/panels';
import type { AxisSpec } from '../kit/charts/types';
import { formatBytesDecimal, formatDuration, formatNumber } from '../../lib/format';
import type { OccupancyTrack, TrackKey } from '../../sim/lessons/pauseLab';

interface Layer {
  key: TrackKey;
  label: string;
  short: string;
  color: string;
  pattern: string | null;
  panel: 'hbm' | 'dram';
}

export const LAYERS: readonly Layer[] = [
  {
    key: 'hbmActive',
    label: 'running or queued sessions + shared prompt',
    short: 'active',
    color: 'var(--series-1)',
    pattern: null,
    panel: 'hbm',
  },
  {
    key: 'hbmIdlePinned',
    label: 'idle sessions, pinned (held)',
    short: 'idle, pinned',
    color: 'var(--chart-danger)',
    pattern: 'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2',
    panel: 'hbm',
  },
  {
    key: 'hbmIdleCached',
    label: 'idle sessions, cached (LRU may evict)',
    short: 'idle, cached',
    color: 'var(--series-2)',
    pattern: 'DOTS',
    panel: 'hbm',
  },
  {
    key: 'hbmDone',
    label: 'finished sessions, cached',
    short: 'finished',
    color: 'var(--chart-muted)',
    pattern: 'M0,2 h8 M0,6 h8',
    panel: 'hbm',
  },
  {
    key: 'dramIdle',
    label: 'idle sessions in DRAM',
    short: 'idle, DRAM',
    color: 'var(--series-3)',
    pattern: 'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2 M-1,7 l2,2 M0,0 l8,8 M7,-1 l2,2',
    panel: 'dram',
  },
  {
    key: 'dramOther',
    label: 'other blocks in DRAM',
    short: 'other, DRAM',
    color: 'var(--chart-muted)',
    pattern: 'M4,0 v8',
    panel: 'dram',
  },
];

const GB = 1e9;

export interface OccupancyChartProps {
  track: OccupancyTrack;
  bytesPerBlock: number;
  capacityBlocks: number;
  title: string;
  description?: string;
  /** Fixed DRAM axis maximum (GB) so policies compare at a glance; default: the data's. */
  dramMaxGB?: number;
}

function stack(track: OccupancyTrack, keys: readonly TrackKey[], scale: number): number[][] {
  const n = track.t.length;
  const out: number[][] = [new Array<number>(n).fill(0)];
  for (const k of keys) {
    const prev = out[out.length - 1];
    out.push(prev.map((p, i) => p + track[k][i] * scale));
  }
  return out;
}

export function OccupancyChart({
  track,
  bytesPerBlock,
  capacityBlocks,
  title,
  description,
  dramMaxGB,
}: OccupancyChartProps) {
  const size = useChartSize({ aspect: 0.62, maxHeight: 560, minHeight: 300 });
  const { width, zoom } = size;
  const prefix = useSafeId('occ');
  const n = track.t.length;
  const narrow = width < 520;
  // Zoomed (presentation), the legend's short labels, a lower floor for the panels and a narrower gap between them
  // keep the picture and the read-outs on one screen with the larger text (the panels keep about reading size's
  // height on screen).
  const compact = narrow || zoom > 1;
  const minPlots = zoom > 1 ? 140 : 220;
  const gap = zoom > 1 ? 16 : 34;
  const scale = bytesPerBlock / GB;
  const hbmLayers = LAYERS.filter((l) => l.panel === 'hbm');
  const dramLayers = LAYERS.filter((l) => l.panel === 'dram');

  const L = useMemo(() => {
    const legend = legendLayout(
      LAYERS.map((l) => (compact ? l.short : l.label)),
      Math.max(100, width - 8),
    );
    const hbmStack = stack(
      track,
      hbmLayers.map((l) => l.key),
      scale,
    );
    const dramStack = stack(
      track,
      dramLayers.map((l) => l.key),
      scale,
    );
    const capGB = capacityBlocks * scale;
    const dramTop = Math.max(dramMaxGB ?? 0, 1, ...dramStack[dramStack.length - 1]);
    const yHbmSpec: AxisSpec = { label: 'HBM', unit: 'GB', format: (v) => formatNumber(v) };
    const yDramSpec: AxisSpec = { label: 'DRAM', unit: 'GB', format: (v) => formatNumber(v) };
    const xSpec = durationAxis('Simulated time', { digits: 2 });
    const tEnd = n ? track.t[n - 1] : 1;
    const provisional = computeMargins({
      yTickLabels: ['000'],
      hasXTitle: true,
      hasYTitle: true,
      legendHeight: legend.height,
    });
    // HBM over DRAM, 62 : 38, at least minPlots units of plot between them (the margins' top is the legend's alone).
    const minRoom = minPlots + 2 * PANEL_TITLE_BAND + gap;
    const room = Math.max(minRoom, size.height - provisional.top - provisional.bottom);
    const panels = stackPanels(provisional.top, [{ share: 0.62 }, { share: 0.38, gapAbove: gap }], room);
    const [hA, hB] = panels.heights;
    const yA = makeScale(yHbmSpec, resolveDomain(yHbmSpec, [0, capGB * 1.04], { zero: true }), [hA, 0]);
    const yB = makeScale(yDramSpec, resolveDomain(yDramSpec, [0, dramTop * 1.05], { zero: true }), [hB, 0]);
    const yATicks = axisTicks(yHbmSpec, yA, 'y');
    const yBTicks = axisTicks(yDramSpec, yB, 'y');
    const m = computeMargins({
      yTickLabels: [...yATicks, ...yBTicks].map((t) => t.label),
      hasXTitle: true,
      hasYTitle: true,
      legendHeight: legend.height,
    });
    const innerWidth = Math.max(60, width - m.left - m.right - 8);
    const x = makeScale(xSpec, [0, tEnd], [0, innerWidth]);
    const xTicks = axisTicks(xSpec, x, 'x');
    const [topA, topB] = panels.tops;
    const height = panels.bottom + m.bottom;
    return {
      legend,
      hbmStack,
      dramStack,
      capGB,
      yA,
      yB,
      yATicks,
      yBTicks,
      m,
      innerWidth,
      x,
      xTicks,
      topA,
      topB,
      hA,
      hB,
      plotHeight: panels.span,
      height,
    };
  }, [
    track,
    scale,
    capacityBlocks,
    dramMaxGB,
    width,
    size.height,
    compact,
    minPlots,
    gap,
    n,
    hbmLayers,
    dramLayers,
  ]);

  const { x, yA, yB, innerWidth, m, topA, topB, hA, hB, plotHeight, height } = L;
  const indexAt = useCallback(
    (px: number) => {
      if (!n) return null;
      const tv = x.invert(px);
      let best = 0;
      for (let i = 1; i < n; i++) if (Math.abs(track.t[i] - tv) < Math.abs(track.t[best] - tv)) best = i;
      return best;
    },
    [n, x, track],
  );
  const ro = useReadout(n, indexAt);

  const paths = useMemo(() => {
    const mk = (st: number[][], y: typeof yA) =>
      st.slice(1).map((upper, li) => {
        const lower = st[li];
        return (
          d3area<number>()
            .curve(curveLinear)
            .x((i) => x(track.t[i]))
            .y0((i) => y(lower[i]))
            .y1((i) => y(upper[i]))
            .digits(1)(Array.from({ length: n }, (_, i) => i)) ?? ''
        );
      });
    return { hbm: mk(L.hbmStack, yA), dram: mk(L.dramStack, yB) };
  }, [L, x, yA, yB, track, n]);

  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const i = ro.index;
    const gb = (k: TrackKey) => formatBytesDecimal(track[k][i] * bytesPerBlock);
    const rows: ReadoutRow[] = LAYERS.map((l) => ({
      label: `${l.panel === 'hbm' ? 'HBM' : 'DRAM'}: ${l.short}`,
      value: gb(l.key),
    }));
    const head = `t = ${formatDuration(track.t[i], 3)}`;
    readout = (
      <Readout
        x={r2(x(track.t[i]))}
        innerWidth={innerWidth}
        innerHeight={plotHeight}
        title={head}
        rows={rows}
      />
    );
    live = readoutSentence(head, rows);
  }

  const fill = (li: number) => partFill(prefix, LAYERS, li);

  return (
    <ChartShell
      kind="occupancy"
      size={{ ...size, height }}
      title={title}
      description={description}
      interactive
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      <PartPatterns prefix={prefix} parts={LAYERS} />
      <EntryLegend
        items={L.legend.items}
        entries={LAYERS.map((l, i) => ({ kind: 'bar', color: l.color, fill: fill(i) }))}
      />
      <g className="chart-plot" transform={`translate(${m.left},0)`}>
        <PanelTitle top={topA}>
          {narrow ? 'HBM (KV budget)' : 'HBM: KV blocks by the state of their session'}
        </PanelTitle>
        <g transform={`translate(0,${topA})`}>
          <GridLines yTicks={L.yATicks} innerWidth={innerWidth} innerHeight={hA} />
          <YAxis ticks={L.yATicks} innerHeight={hA} title="HBM (GB)" titleOffset={m.left - 4} />
          {paths.hbm.map((d, li) => (
            <path
              key={li}
              className="occupancy-layer"
              data-layer={hbmLayers[li].key}
              d={d}
              style={{ fill: fill(li), stroke: LAYERS[li].color, strokeWidth: 0.5 }}
            />
          ))}
          <line
            x1={0}
            x2={innerWidth}
            y1={r2(yA(L.capGB))}
            y2={r2(yA(L.capGB))}
            style={{ stroke: 'var(--chart-fg)', strokeDasharray: '5 4', strokeWidth: 1.2 }}
          />
          <text
            className="chart-marker-label"
            x={innerWidth - 4}
            y={r2(yA(L.capGB)) - 5}
            textAnchor="end"
            style={{
              fill: 'var(--chart-fg)',
              stroke: 'var(--chart-bg)',
              strokeWidth: 3,
              paintOrder: 'stroke',
            }}
          >
            KV budget {formatBytesDecimal(L.capGB * GB)}
          </text>
          <g className="chart-axis chart-axis-x" transform={`translate(0,${hA})`}>
            <line className="chart-domain" x1={0} x2={innerWidth} y1={0.5} y2={0.5} />
          </g>
        </g>
        <PanelTitle top={topB}>
          {narrow ? 'Host DRAM' : 'Host DRAM: block copies (offloaded, written through or back)'}
        </PanelTitle>
        <g transform={`translate(0,${topB})`}>
          <GridLines yTicks={L.yBTicks} xTicks={L.xTicks} innerWidth={innerWidth} innerHeight={hB} />
          {/* A short panel's title runs on beside the x axis's labels (none stand at the far left). */}
          <YAxis
            ticks={L.yBTicks}
            innerHeight={hB}
            title="DRAM (GB)"
            titleOffset={m.left - 4}
            roomBelow={m.bottom - 4}
          />
          {paths.dram.map((d, li) => (
            <path
              key={li}
              className="occupancy-layer"
              data-layer={dramLayers[li].key}
              d={d}
              style={{
                fill: fill(hbmLayers.length + li),
                stroke: LAYERS[hbmLayers.length + li].color,
                strokeWidth: 0.5,
              }}
            />
          ))}
          <XAxis
            ticks={L.xTicks}
            innerWidth={innerWidth}
            innerHeight={hB}
            title="Simulated time"
            titleOffset={X_TITLE_OFFSET}
          />
        </g>
        <g transform={`translate(0,${topA})`}>
          {readout}
          <rect className="chart-overlay" width={innerWidth} height={plotHeight} {...ro.overlay} />
        </g>
      </g>
    </ChartShell>
  );
}
