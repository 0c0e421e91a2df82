/**
 * Frames an animated widget actually draws per second while its transport plays. The widget stamps its picture
 * with data-frame="<n>" (n grows by one per drawn picture) and data-marks="<marks on screen>"; this reads both
 * before and after a span of wall time, so dropped or skipped renders are not counted.
 */
import type { Locator } from '@playwright/test';

export interface DrawnRate {
  fps: number;
  /** Marks on screen, the mean of the readings at the start and end of the span. */
  marks: number;
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
        const t0 = performance.now();
        setTimeout(() => {
          const b = read();
          const dt = (performance.now() - t0) / 1000;
          resolve({ fps: (b.frame - a.frame) / dt, marks: (a.marks + b.marks) / 2 });
        }, span);
      });
    },
    { selector: picture, span: ms },
  );
}
