/** Shared types of the charts kit. */
import type { Ref } from 'react';

export type ScaleKind = 'linear' | 'log';

/** An axis: its label and unit (shown as "Label (unit)"), scale, tick format and optional fixed domain. */
export interface AxisSpec {
  label: string;
  unit?: string;
  scale?: ScaleKind;
  /** Tick and value-label format. Default: 3 significant digits with k/M/B suffixes, e-notation when tiny. */
  format?: (v: number) => string;
  /**
   * Read-out (tooltip) format. Default: `format(v)`, followed by the unit when the formatted text is a bare
   * number (so formatBytes' "39.1 GiB" is not followed by "bytes" again, but "12.3k" becomes "12.3k tokens").
   */
  readout?: (v: number) => string;
  /** Fixed domain; otherwise the data's extent (made "nice"). */
  domain?: [number, number];
  /**
   * Tick values: a fixed list, or a function of the domain, the tick count that fits and whether the axis is
   * log (e.g. `bytesTicks` for round KiB/MiB/GiB steps, `durationTicks` for 1 ms / 1 s / 1 min / 1 h). Ticks are still thinned so labels never overlap.
   */
  ticks?: readonly number[] | ((domain: [number, number], count: number, log: boolean) => number[]);
  /** Include zero in an automatic linear domain (default: true for bar and histogram value axes). */
  zero?: boolean;
}

/**
 * Semantic colour of a marker; each maps to a theme variable (theme.ts toneColor). 'fg', the default, is the ink
 * of the text: the rule a chart is read against (the value the student set, a break-even, a playhead). There is no
 * tone in a series' hue: a rule beside a line of its colour reads as more data (tests/series-hues.test.ts).
 */
export type Tone = 'fg' | 'muted' | 'danger' | 'ok';

interface MarkerBase {
  label?: string;
  /**
   * A shorter form of the label (e.g. without the source's name), drawn where the whole label cannot get clear of
   * the data lines, rules and other labels (a narrow chart: markerPlacement.ts); the whole label stays its title.
   */
  shortLabel?: string;
  tone?: Tone;
}
/** A vertical rule at x (e.g. a break-even point or a published median). */
export interface RuleXMarker extends MarkerBase {
  kind: 'x';
  x: number;
  /**
   * Where the label sits along the rule: at the top (the default, rule labels stacked in up to three rows) or at
   * the bottom, where a chart's data leaves that corner empty (a cumulative cost is high by the last turns).
   */
  labelAt?: 'top' | 'bottom';
}
/** A horizontal rule at y (e.g. an SLO or a memory capacity). In a BarChart, y is the value axis. */
export interface RuleYMarker extends MarkerBase {
  kind: 'y';
  y: number;
}
/** A labelled point. */
export interface PointMarker extends MarkerBase {
  kind: 'point';
  x: number;
  y: number;
  /** Put the label under the point (for a point that sits next to another labelled one). */
  labelBelow?: boolean;
  /**
   * The point is a symbol the chart draws itself (a series' own point, coloured by its series): the marker is a
   * thin ring round it that leaves the symbol's colour showing. Otherwise (a point on a line) it is a hollow dot
   * in the chart's background, over the line.
   */
  ringsSymbol?: boolean;
}
/** A shaded x-range. */
export interface BandMarker extends MarkerBase {
  kind: 'band';
  x0: number;
  x1: number;
}
export type Marker = RuleXMarker | RuleYMarker | PointMarker | BandMarker;

/** Props every chart takes. */
export interface ChartBaseProps {
  /** Accessible name (aria-label of the figure). */
  title: string;
  /** Longer accessible description (an SVG <desc>). */
  description?: string;
  /** Fixed size in px; otherwise the width follows the container and the height follows `aspect`. */
  width?: number;
  height?: number;
  /** Height / width when height is not given (default 0.56, clamped to 200–440 px). */
  aspect?: number;
  markers?: readonly Marker[];
  /** Show the legend (default: when there are two or more series). */
  legend?: boolean;
  /** Message shown when there is nothing to draw. */
  emptyMessage?: string;
  className?: string;
  /** The root <svg>, for export. */
  ref?: Ref<SVGSVGElement>;
}

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A point of a series; non-finite values are skipped. */
export interface XY {
  x: number;
  y: number;
}
