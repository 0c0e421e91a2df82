/**
 * The charts' colours as the reader sees them: the theme variables of charts.css resolved to hex in the light and the
 * dark theme, and the CIEDE2000 difference of two colours (the perceptual difference, about 1 at the smallest a
 * viewer notices side by side), for typical colour vision or as a red–green colour-blind reader sees the two
 * (asSeenWith). For tests that hold two marks of a chart apart (tests/series-hues.test.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Theme = 'light' | 'dark';

const CSS = readFileSync(
  fileURLToPath(new URL('../src/widgets/kit/charts/charts.css', import.meta.url)),
  'utf8',
);

/** The `--name: #hex` declarations of the first block that opens with `selector {`. */
function declarations(selector: string): Map<string, string> {
  const start = CSS.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`charts.css has no ${selector} block`);
  const body = CSS.slice(start, CSS.indexOf('}', start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{6})\b/g)].map((m) => [m[1], m[2]]));
}

const THEMES: Record<Theme, Map<string, string>> = {
  light: declarations(':root'),
  // The dark theme redefines the same variables; what it leaves out is the light value.
  dark: new Map([...declarations(':root'), ...declarations("[data-theme='dark']")]),
};

/** A chart colour (`var(--series-1)`, `var(--chart-fg)` or a hex) in a theme, as hex. */
export function resolveColor(color: string, theme: Theme): string {
  const name = /^var\((--[\w-]+)\)$/.exec(color.trim())?.[1];
  if (!name) return color;
  const hex = THEMES[theme].get(name);
  if (!hex) throw new Error(`charts.css defines no ${name} in the ${theme} theme`);
  return hex;
}

/** sRGB hex to linear RGB, each channel 0 to 1. */
function linearRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return [r, g, b];
}

/** Linear RGB back to sRGB hex, clipped to the gamut. */
function toHex(rgb: readonly number[]): string {
  return `#${rgb
    .map((v) => {
      const c = Math.min(1, Math.max(0, v));
      const s = c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
      return Math.round(s * 255)
        .toString(16)
        .padStart(2, '0');
    })
    .join('')}`;
}

/**
 * Colour vision: typical, or one of the two red–green dichromacies (protanopia, deuteranopia), the strongest forms of
 * the colour-blindness about one man in twelve has (the milder forms see between them and typical).
 */
export type Vision = 'typical' | 'protan' | 'deutan';
export const VISIONS: readonly Vision[] = ['typical', 'protan', 'deutan'];

/** Viénot, Brettel and Mollon (1999)'s dichromat projections in linear sRGB, rows of a 3 × 3 matrix. */
const DICHROMAT: Record<Exclude<Vision, 'typical'>, readonly number[]> = {
  protan: [0.11238, 0.88762, 0, 0.11238, 0.88762, 0, 0.00401, -0.00401, 1],
  deutan: [0.29275, 0.70725, 0, 0.29275, 0.70725, 0, -0.02234, 0.02234, 1],
};

/** A hex colour as a reader with that colour vision sees it (the same colour for typical vision). */
export function asSeenWith(hex: string, vision: Vision): string {
  if (vision === 'typical') return hex;
  const m = DICHROMAT[vision];
  const rgb = linearRgb(hex);
  return toHex([0, 1, 2].map((i) => m[i * 3] * rgb[0] + m[i * 3 + 1] * rgb[1] + m[i * 3 + 2] * rgb[2]));
}

/** sRGB hex to CIELAB (D65). */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = linearRgb(hex);
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIEDE2000 colour difference of two hex colours (Sharma, Wu and Dalal's formulation). */
export function deltaE2000(hex1: string, hex2: string): number {
  const rad = Math.PI / 180;
  const [l1, a1, b1] = lab(hex1);
  const [l2, a2, b2] = lab(hex2);
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1);
  const c2p = Math.hypot(a2p, b2);
  const h1p = c1p === 0 ? 0 : (Math.atan2(b1, a1p) / rad + 360) % 360;
  const h2p = c2p === 0 ? 0 : (Math.atan2(b2, a2p) / rad + 360) % 360;
  const dLp = l2 - l1;
  const dCp = c2p - c1p;
  let dhp = h2p - h1p;
  if (c1p * c2p === 0) dhp = 0;
  else if (dhp > 180) dhp -= 360;
  else if (dhp < -180) dhp += 360;
  const dHp = 2 * Math.sqrt(c1p * c2p) * Math.sin((dhp * rad) / 2);
  const lBarP = (l1 + l2) / 2;
  const cBarP = (c1p + c2p) / 2;
  let hBarP = h1p + h2p;
  if (c1p * c2p !== 0)
    hBarP = Math.abs(h1p - h2p) > 180 ? (hBarP + (hBarP < 360 ? 360 : -360)) / 2 : hBarP / 2;
  const t =
    1 -
    0.17 * Math.cos((hBarP - 30) * rad) +
    0.24 * Math.cos(2 * hBarP * rad) +
    0.32 * Math.cos((3 * hBarP + 6) * rad) -
    0.2 * Math.cos((4 * hBarP - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hBarP - 275) / 25) ** 2));
  const rc = 2 * Math.sqrt(cBarP ** 7 / (cBarP ** 7 + 25 ** 7));
  const sl = 1 + (0.015 * (lBarP - 50) ** 2) / Math.sqrt(20 + (lBarP - 50) ** 2);
  const sc = 1 + 0.045 * cBarP;
  const sh = 1 + 0.015 * cBarP * t;
  const rt = -Math.sin(2 * dTheta * rad) * rc;
  return Math.sqrt((dLp / sl) ** 2 + (dCp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dCp / sc) * (dHp / sh));
}

/** The chroma (CIELAB C*) of a hex colour: about 0 for the greys and the ink, 40 and up for the series' hues. */
export function chroma(hex: string): number {
  const [, a, b] = lab(hex);
  return Math.hypot(a, b);
}
