/**
 * One place that turns numbers into text, so that no figure on screen is NaN, Infinity, 17 digits long or in
 * e-notation. Every formatter returns '—' for a value that is not a finite number; magnitudes a person cannot
 * read as digits (beyond 10¹⁵, below 10⁻⁹) are written as "1.6 × 10⁻¹²".
 */

export const MISSING = '—';

function finite(x: number | null | undefined): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

/** Scientific notation as people write it: 1.6 × 10⁻¹². */
export function formatScientific(x: number, digits = 2): string {
  const [mantissa, exponent] = x.toExponential(Math.max(0, digits - 1)).split('e');
  const m = mantissa.replace(/\.?0+$/, '');
  const e = String(Number(exponent))
    .split('')
    .map((c) => SUPERSCRIPT[c] ?? c)
    .join('');
  return `${m} × 10${e}`;
}

/** Past these magnitudes digits stop being readable (a 16-digit integer, a 0.000000000…). */
const LARGEST_AS_DIGITS = 1e15;
const SMALLEST_AS_DIGITS = 1e-9;

/**
 * One formatter each, made once: `Number.prototype.toLocaleString` builds a new Intl.NumberFormat on every call,
 * which made number formatting the largest single cost of rendering a lesson (its prose figures, read-outs and
 * axis ticks) on a slow CPU. Same output as `x.toLocaleString('en-US', …)`.
 */
const GROUPED_INTEGER = new Intl.NumberFormat('en-US');
const GROUPED_DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 12 });

/** Up to `digits` significant digits, trailing zeros dropped, thousands separated. */
export function formatNumber(x: number | null | undefined, digits = 3): string {
  if (!finite(x)) return MISSING;
  if (x === 0) return '0';
  const abs = Math.abs(x);
  if (abs >= LARGEST_AS_DIGITS || abs < SMALLEST_AS_DIGITS) return formatScientific(x, digits);
  if (abs >= 10 ** digits) return GROUPED_INTEGER.format(Math.round(x));
  const p = Number(x.toPrecision(digits));
  return GROUPED_DECIMAL.format(p);
}

function scaled(x: number, units: readonly string[], base: number, digits: number, sep = ' '): string {
  const sign = x < 0 ? '-' : '';
  let v = Math.abs(x);
  let i = 0;
  while (v >= base && i < units.length - 1) {
    v /= base;
    i++;
  }
  // Values that would print as 1,000 or more of a unit (999.95 kB, 1,020 KiB) read better in the next unit.
  if (Number(v.toPrecision(digits)) >= Math.min(base, 1000) && i < units.length - 1) {
    v /= base;
    i++;
  }
  return `${sign}${formatNumber(v, digits)}${sep}${units[i]}`;
}

/** A count written out in full, thousands separated (30,000; 131,072), as the exercises and read-outs name them. */
export const formatWhole = (x: number | null | undefined): string => formatNumber(x, 6);

/**
 * A value with its control's unit, the unit singular for exactly one of a counted thing ("1 GPU", "1 turn", "2
 * GPUs", "1 session/s"): a unit that is one word of letters ending in "s" (before any "/") is a plural count
 * noun; "s", "ms" and "GB/s" are not.
 */
export function formatWithUnit(x: number, unit?: string, digits = 4): string {
  const n = formatNumber(x, digits);
  if (!unit) return n;
  return `${n} ${x === 1 ? unit.replace(/^([A-Za-z]{2,})s(?=$|\/)/, '$1') : unit}`;
}

/** Tokens: 950 tokens, 12.3k tokens, 1.5M tokens. */
export function formatTokens(x: number | null | undefined, digits = 3): string {
  if (!finite(x)) return MISSING;
  const abs = Math.abs(x);
  if (abs < 1000) return `${formatNumber(x, digits)} tokens`;
  return scaled(x, ['', 'k', 'M', 'B', 'T'], 1000, digits, '') + ' tokens';
}

/** A bare token count with a k/M suffix (for axes): 12.3k. */
export function formatCount(x: number | null | undefined, digits = 3): string {
  if (!finite(x)) return MISSING;
  if (Math.abs(x) < 1000) return formatNumber(x, digits);
  return scaled(x, ['', 'k', 'M', 'B', 'T'], 1000, digits, '');
}

/** Bytes in binary units: 128 KiB, 39.1 GiB. */
export function formatBytes(x: number | null | undefined, digits = 3): string {
  if (!finite(x)) return MISSING;
  return scaled(x, ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'], 1024, digits);
}

/** Bytes in decimal units, as datasheets quote memory: 80 GB. */
export function formatBytesDecimal(x: number | null | undefined, digits = 3): string {
  if (!finite(x)) return MISSING;
  return scaled(x, ['B', 'kB', 'MB', 'GB', 'TB', 'PB'], 1000, digits);
}

/** Bandwidth in decimal bytes per second, as links are quoted: 63 GB/s. */
export function formatBandwidth(bytesPerSecond: number | null | undefined, digits = 3): string {
  if (!finite(bytesPerSecond)) return MISSING;
  return scaled(bytesPerSecond, ['B/s', 'kB/s', 'MB/s', 'GB/s', 'TB/s', 'PB/s'], 1000, digits);
}

const YEAR_S = 365.25 * 86400;
/** Beyond this a duration is only "a very long time": the digits would mean nothing. */
const LONGEST_YEARS = 1e6;

/** Durations from nanoseconds to years; input in seconds. */
export function formatDuration(seconds: number | null | undefined, digits = 3): string {
  if (!finite(seconds)) return MISSING;
  const sign = seconds < 0 ? '-' : '';
  const s = Math.abs(seconds);
  if (s === 0) return '0 s';
  if (s < 1e-6) return `${sign}${formatNumber(s * 1e9, digits)} ns`;
  if (s < 1e-3) return `${sign}${formatNumber(s * 1e6, digits)} µs`;
  if (s < 1) return `${sign}${formatNumber(s * 1e3, digits)} ms`;
  if (s < 60) return `${sign}${formatNumber(s, digits)} s`;
  if (s < 3600) return `${sign}${formatNumber(s / 60, digits)} min`;
  if (s < 86400) return `${sign}${formatNumber(s / 3600, digits)} h`;
  if (s < YEAR_S) return `${sign}${formatNumber(s / 86400, digits)} d`;
  if (s < LONGEST_YEARS * YEAR_S) return `${sign}${formatNumber(s / YEAR_S, digits)} years`;
  return `${sign}> 1 million years`;
}

/** FLOPs (a count) or FLOP/s (a rate): 989 TFLOP/s. */
export function formatFlops(x: number | null | undefined, perSecond = false, digits = 3): string {
  if (!finite(x)) return MISSING;
  const units = ['FLOP', 'kFLOP', 'MFLOP', 'GFLOP', 'TFLOP', 'PFLOP', 'EFLOP'];
  return scaled(x, units, 1000, digits) + (perSecond ? '/s' : '');
}

/** Money in US dollars; cents for small amounts, fractions of a cent where it matters. */
export function formatMoney(dollars: number | null | undefined, digits = 3): string {
  if (!finite(dollars)) return MISSING;
  const sign = dollars < 0 ? '-' : '';
  const d = Math.abs(dollars);
  if (d !== 0 && d < 0.01) return `${sign}$${formatNumber(d, digits)}`;
  if (d < 1000) return `${sign}$${d.toFixed(2)}`;
  if (d >= LARGEST_AS_DIGITS) return `${sign}$${formatScientific(d)}`;
  return `${sign}$${GROUPED_INTEGER.format(Math.round(d))}`;
}

/** A ratio in [0, 1] (or beyond) as a percentage: 0.4012 → 40.1%; below 0.01%, "< 0.01%". */
export function formatPercent(ratio: number | null | undefined, digits = 3): string {
  if (!finite(ratio)) return MISSING;
  const pct = ratio * 100;
  if (pct !== 0 && Math.abs(pct) < 0.01) return pct < 0 ? '> -0.01%' : '< 0.01%';
  return `${formatNumber(pct, digits)}%`;
}

/**
 * A probability as a percentage that keeps a tiny one readable: 88.7%, and below 0.1% in scientific notation,
 * 3.7 × 10⁻⁹%, where formatPercent says "< 0.01%" (a chance that small is the point when it is shown).
 */
export function formatProbability(p: number | null | undefined, digits = 3): string {
  if (!finite(p)) return MISSING;
  return p >= 0.001 || p === 0 ? formatPercent(p, digits) : `${formatScientific(100 * p, 2)}%`;
}

/** A multiplier: 3.2×. */
export function formatRatio(x: number | null | undefined, digits = 3): string {
  if (!finite(x)) return MISSING;
  return `${formatNumber(x, digits)}×`;
}

/** Power: 700 W, 10.2 kW, 1.2 MW. */
export function formatPower(watts: number | null | undefined, digits = 3): string {
  if (!finite(watts)) return MISSING;
  return scaled(watts, ['W', 'kW', 'MW', 'GW'], 1000, digits);
}
