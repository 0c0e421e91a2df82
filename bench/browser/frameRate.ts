/**
 * Frames an animated widget actually draws per second while its transport plays. The widget stamps its picture
 * with data-frame="<n>" (n grows by one per drawn picture) and data-marks="<marks on screen>"; this reads both
 * at every animation frame of a span of wall time, so dropped or skipped renders are not counted.
 */
import type { Locator } from '@playwright/test';

export interface DrawnRate {
  fps: number;
  /** Marks on screen, the mean of the readings at the start and end of the span. */
  marks: number;
  /** The fewest marks on screen at any animation frame of the span. */
  minMarks: number;
}

export async function drawnFps(widget: Locator, picture: string, ms = 3_000): Promise<DrawnRate> {
  const play = widget.getByRole('button', { name: /^Play/ });
  if ((await play.count()) > 0) await play.first().click();
  return widget.evaluate(
    (root, { selector, span }) => {
      const el = root.querySelector(selector);
      const read = () => ({
        frame: Number(el?.getAttribute('data-frame') ?? NaN),
        marks: Number(el?.getAttribute('data-marks') ?? NaN),
      });
      return new Promise<DrawnRate>((resolve) => {
        const a = read();
        let minMarks = a.marks;
        const t0 = performance.now();
        const tick = () => {
          const now = read();
          minMarks = Math.min(minMarks, now.marks);
          const elapsed = performance.now() - t0;
          if (elapsed < span) requestAnimationFrame(tick);
          else
            resolve({
              fps: ((now.frame - a.frame) * 1000) / elapsed,
              marks: (a.marks + now.marks) / 2,
              minMarks,
            });
        };
        requestAnimationFrame(tick);
      });
    },
    { selector: picture, span: ms },
  );
}
