/**
 * The whole mask as a picture: one pixel per token id, 512 ids a row, id 0 at the top left (391 rows hold the
 * 200,019 ids of o200k; the last row's tail is not a token). Lit = allowed, dark = masked. Drawn into an
 * ImageData at the canvas's own resolution, and only when the step, the wipe row or the theme changes.
 */
import { memo, useEffect, useMemo, useRef } from 'react';
import { useThemeVersion } from '../kit/charts/CanvasLayer';
import { resolveCssColor } from '../kit/charts/theme';
import { formatNumber } from '../../lib/format';

export const GRID_WIDTH = 512;
/** Ring the lit pixels when the mask allows at most this many tokens. */
const RING_AT_MOST = 24;

/** A CSS colour as little-endian RGBA packed into one 32-bit word (for a Uint32Array view of ImageData). */
function packedColour(el: Element, cssVar: string, fallback: string): number {
  const c = document.createElement('canvas');
  c.width = c.height = 1;
  const g = c.getContext('2d');
  if (!g) return 0xff808080;
  g.fillStyle = resolveCssColor(el, cssVar, fallback);
  g.fillRect(0, 0, 1, 1);
  const [r, gr, b, a] = g.getImageData(0, 0, 1, 1).data;
  return ((a << 24) | (b << 16) | (gr << 8) | r) >>> 0;
}

export interface MaskGridProps {
  masks: Uint32Array;
  wordsPerMask: number;
  vocabSize: number;
  step: number;
  /** 0 → 1: rows above wipe·height show this step's mask, the rest the previous step's (or no mask). */
  wipe: number;
  /** True when this step's mask is the first one (the rows not yet wiped show every id lit). */
  first: boolean;
}

export const MaskGrid = memo(function MaskGrid({
  masks,
  wordsPerMask,
  vocabSize,
  step,
  wipe,
  first,
}: MaskGridProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const theme = useThemeVersion();
  const rows = Math.ceil(vocabSize / GRID_WIDTH);
  const wipeRow = Math.round(wipe * rows);
  const image = useRef<ImageData | null>(null);
  // Colours are resolved once per theme, not per frame.
  const colours = useMemo(() => {
    const el = typeof document === 'undefined' ? null : document.documentElement;
    if (!el) return null;
    return {
      lit: packedColour(el, 'var(--so-mask-lit)', '#f5c518'),
      dark: packedColour(el, 'var(--so-mask-dark)', '#22262c'),
      none: packedColour(el, 'var(--so-mask-none)', '#c8ced6'),
      ring: resolveCssColor(el, 'var(--so-mask-lit)', '#f5c518'),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- theme is the reason to resolve again
  }, [theme]);

  useEffect(() => {
    const canvas = ref.current;
    const g = canvas?.getContext('2d');
    if (!canvas || !g || !colours) return;
    const { lit, dark, none } = colours;
    if (image.current?.height !== rows) image.current = g.createImageData(GRID_WIDTH, rows);
    const px = new Uint32Array(image.current.data.buffer);
    const cur = step * wordsPerMask;
    const prev = (step - 1) * wordsPerMask;
    const split = wipeRow * GRID_WIDTH;
    for (let id = 0; id < px.length; id++) {
      if (id >= vocabSize) {
        px[id] = none;
        continue;
      }
      let on: boolean;
      if (id < split) on = ((masks[cur + (id >> 5)] >>> (id & 31)) & 1) === 1;
      else if (first) on = true;
      else on = ((masks[prev + (id >> 5)] >>> (id & 31)) & 1) === 1;
      px[id] = on ? lit : dark;
    }
    g.putImageData(image.current, 0, 0);
    // A handful of lit pixels is invisible at this size: ring each one once the new mask is fully shown.
    if (wipeRow === rows) {
      const lit: number[] = [];
      for (let w = 0; w < wordsPerMask && lit.length <= RING_AT_MOST; w++) {
        const bits = masks[cur + w];
        if (bits === 0) continue;
        for (let b = 0; b < 32; b++) if ((bits >>> b) & 1) lit.push(w * 32 + b);
      }
      if (lit.length <= RING_AT_MOST) {
        g.strokeStyle = colours.ring;
        g.lineWidth = 2;
        for (const id of lit) {
          g.beginPath();
          g.arc((id % GRID_WIDTH) + 0.5, Math.floor(id / GRID_WIDTH) + 0.5, 7, 0, 2 * Math.PI);
          g.stroke();
        }
      }
    }
    canvas.dataset.drawn = `${step}:${wipeRow}`;
  }, [masks, wordsPerMask, vocabSize, step, wipeRow, first, rows, colours]);

  return (
    <figure className="so-grid" data-figure="mask-grid">
      <canvas
        ref={ref}
        width={GRID_WIDTH}
        height={rows}
        role="img"
        aria-label={`The mask at step ${step} over all ${formatNumber(vocabSize)} token ids, one pixel each: lit pixels are allowed tokens, dark pixels masked ones.`}
      />
      <figcaption>
        <span className="so-swatch" data-kind="lit" aria-hidden="true" /> allowed (lit){' '}
        <span className="so-swatch" data-kind="dark" aria-hidden="true" /> masked (dark){' '}
        <span className="so-swatch" data-kind="none" aria-hidden="true" /> not a token id
        <br />
        One pixel per token id, {GRID_WIDTH} a row: id 0 top left, {formatNumber(vocabSize - 1)} on the last
        row. When at most {RING_AT_MOST} tokens are allowed, a ring marks each.
      </figcaption>
    </figure>
  );
});
