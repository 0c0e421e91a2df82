/**
 * Every lesson's charts, on a phone and on a laptop: no marker's label runs across a marker rule (its own or
 * another's), where a reader would take the rule for a strike-through. The kit places labels clear where it can
 * (src/widgets/kit/charts/markerPlacement.ts); where a chart is too narrow for a whole label, it gives the label a
 * short form or runs it along its rule. This checks what the pages draw.
 */
import { LESSONS } from '../src/app/lessons';
import { expect, gotoLessonIdle, test } from './fixtures';

for (const [screen, viewport] of [
  ['on a phone', { width: 390, height: 844 }],
  ['reading at 1280 px', { width: 1280, height: 800 }],
] as const)
  test.describe(`marker labels, ${screen}`, () => {
    test.use({ viewport });
    for (const lesson of LESSONS)
      test(`${lesson.slug}: no marker label across a marker rule`, async ({ page }) => {
        test.setTimeout(120_000);
        await gotoLessonIdle(page, lesson.slug);
        const crossings = await page.evaluate(() => {
          const out: string[] = [];
          for (const svg of document.querySelectorAll<SVGSVGElement>('[data-widget] svg.chart-svg')) {
            const chart = `${svg.closest('[data-widget]')!.getAttribute('data-widget')}: ${svg.getAttribute('aria-label')?.slice(0, 40)}`;
            // A rule's box has no width (or height): widen it to its stroke.
            const rules = [...svg.querySelectorAll('.chart-marker-rule')].map((line) => {
              const r = line.getBoundingClientRect();
              return {
                left: r.left - 0.75,
                right: r.right + 0.75,
                top: r.top - 0.75,
                bottom: r.bottom + 0.75,
              };
            });
            // A band's label sits inside its band, which a rule may cross (07.10's chunk read out inside the range
            // that meets both SLOs): not these.
            const labels = [...svg.querySelectorAll<SVGTextElement>('.chart-marker-label')].filter(
              (t) => !t.closest('[data-marker="band"]'),
            );
            for (const text of labels) {
              // The glyphs' box, a pixel in from each side: a rule touching the text's padding does not cross it.
              const t = text.getBoundingClientRect();
              for (const r of rules) {
                const x0 = Math.max(t.left + 1, r.left);
                const x1 = Math.min(t.right - 1, r.right);
                const y0 = Math.max(t.top + 1, r.top);
                const y1 = Math.min(t.bottom - 1, r.bottom);
                if (x0 < x1 && y0 < y1) out.push(`${chart}: “${text.textContent}”`);
              }
            }
          }
          return [...new Set(out)];
        });
        expect(crossings).toEqual([]);
      });
  });
