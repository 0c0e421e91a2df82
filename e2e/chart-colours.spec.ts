/**
 * Every marker rule and point of every lesson's charts, as drawn, in a colour a reader tells from each line of its
 * chart: further from it (CIEDE2000, tests/colorDifference.ts) than the palette's blue is from its sky blue, the pair
 * instructors could not tell apart, for typical colour vision and for red–green colour-blind readers, in the light
 * and the dark theme. tests/series-hues.test.ts holds the kit's tones and the lessons' named hues apart; this checks
 * what the pages draw, so a chart added later is held to it too.
 */
import { LESSONS } from '../src/app/lessons';
import { asSeenWith, deltaE2000, resolveColor, VISIONS, type Theme } from '../tests/colorDifference';
import { expect, gotoLessonIdle, test } from './fixtures';

const THEMES: readonly Theme[] = ['light', 'dark'];
const TOO_CLOSE = Math.max(
  ...THEMES.map((t) => deltaE2000(resolveColor('var(--series-1)', t), resolveColor('var(--series-6)', t))),
);

interface DrawnChart {
  chart: string;
  marks: { label: string; color: string }[];
  lines: { series: string; color: string }[];
}

test.describe('chart colours', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  for (const lesson of LESSONS)
    test(`${lesson.slug}: every marker rule and point apart from its chart's lines, colour-blind readers too`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      // Idle: a streamed sweep marks the loads still running with grey rules that go when it ends.
      await gotoLessonIdle(page, lesson.slug);
      const problems: string[] = [];
      let checked = 0;
      for (const theme of THEMES) {
        const charts = await page.evaluate((theme) => {
          document.documentElement.dataset.theme = theme;
          const hex = (rgb: string) =>
            `#${(rgb.match(/\d+(\.\d+)?/g) ?? [])
              .slice(0, 3)
              .map((v) => Math.round(Number(v)).toString(16).padStart(2, '0'))
              .join('')}`;
          const stroke = (el: Element) => hex(getComputedStyle(el).stroke);
          return [...document.querySelectorAll<SVGSVGElement>('[data-widget] svg.chart-svg')].map(
            (svg): DrawnChart => ({
              chart: `${svg.closest('[data-widget]')!.getAttribute('data-widget')}: ${svg.getAttribute('aria-label')?.slice(0, 50)}`,
              marks: [
                ...svg.querySelectorAll<SVGGElement>(
                  '.chart-marker[data-marker="x"], .chart-marker[data-marker="y"], .chart-marker[data-marker="point"]',
                ),
              ]
                // A ring rounds a series' own symbol: its colour is the series' on purpose.
                .filter((g) => !g.querySelector('.chart-marker-ring'))
                .map((g) => ({
                  label: g.textContent?.trim() || g.getAttribute('data-marker')!,
                  color: stroke(g.querySelector('line, circle')!),
                })),
              lines: [...svg.querySelectorAll('.chart-series .chart-line, .chart-series-item .chart-line')]
                .filter((l) => !l.closest('.chart-legend'))
                .map((l) => ({
                  series: l.closest('[data-series]')?.getAttribute('data-series') ?? 'a line',
                  color: stroke(l),
                })),
            }),
          );
        }, theme);
        for (const c of charts)
          for (const m of c.marks)
            for (const l of new Map(c.lines.map((x) => [x.color, x])).values())
              for (const vision of VISIONS) {
                checked++;
                const d = deltaE2000(asSeenWith(m.color, vision), asSeenWith(l.color, vision));
                if (!(d > TOO_CLOSE))
                  problems.push(
                    `${c.chart}: “${m.label}” (${m.color}) beside “${l.series}” (${l.color}), ${theme} theme, ${vision}: ΔE ${d.toFixed(1)}`,
                  );
              }
      }
      expect(problems, `closer than blue to sky blue (ΔE ${TOO_CLOSE.toFixed(1)})`).toEqual([]);
      test.info().annotations.push({ type: 'checked', description: `${checked} mark–line pairs` });
    });
});
