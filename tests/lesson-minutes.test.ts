import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeLessonMinutes } from '../src/app/lessonMinutesFromFiles';
import { countExercises, countWords, estimateMinutes } from '../src/app/lessonTime';
import { LESSON_MINUTES as stored } from '../src/app/lessonMinutes';
import { LESSONS } from '../src/app/lessons';

describe('lesson durations are measured from the page', () => {
  it('lessonMinutes.ts matches the lessons as they are (run `npm run lesson-minutes` after editing one)', () => {
    expect(stored).toEqual(computeLessonMinutes(readFileSync));
  });
  it('every lesson card shows its measured minutes', () => {
    for (const l of LESSONS)
      expect(l.minutes).toBe((stored as Record<string, { minutes: number }>)[l.slug].minutes);
  });
  it('counts prose words, one per inline figure or formula, and no import lines or tags', () => {
    const mdx = [
      "import { X } from '../x';",
      '## A heading',
      'Two agents share <Fig m="a" /> of KV, $H_{kv}$ heads.',
      '<Callout title="t">Inside a box.</Callout>',
      '```ts\nconst ignored = 1;\n```',
      '<KvFootprintExercise />',
    ].join('\n');
    expect(countWords(mdx)).toBe(2 + 8 + 3 + 1);
    expect(countExercises(mdx)).toBe(1);
  });
  it('adds reading, widgets, exercises and the tour, rounded to 5 minutes', () => {
    expect(estimateMinutes({ words: 3000, widgets: 3, exercises: 2 })).toBe(40);
    expect(estimateMinutes({ words: 3000, widgets: 3, exercises: 2, tourMinutes: 8 })).toBe(50);
    expect(estimateMinutes({ words: 0, widgets: 0, exercises: 0 })).toBe(5);
  });
});

describe('tour length', () => {
  it('is the sum of its steps and its captions are not reading time', async () => {
    const { tourMinutes, tourBlock } = await import('../src/app/lessonTime');
    const mdx =
      'Intro words here.\n<Tour lesson="x" title="t">\n<TourStep seconds={30}>a b c</TourStep>\n<TourStep widget="w" tryThis={0} seconds={45} />\n</Tour>\nMore.';
    expect(tourMinutes(mdx)).toBe(1.25);
    expect(tourBlock(mdx)).toMatch(/^<Tour[\s\S]*<\/Tour>$/);
    expect(tourMinutes('no tour')).toBe(0);
  });
});

describe('every lesson has a guided tour of 5–10 minutes', () => {
  it('in its MDX, with its lesson number as the root id', async () => {
    const { tourBlock, tourMinutes } = await import('../src/app/lessonTime');
    const { resolve } = await import('node:path');
    for (const l of LESSONS) {
      const mdx = readFileSync(resolve(import.meta.dirname, `../lessons/${l.slug}.mdx`), 'utf8');
      expect(tourBlock(mdx), l.slug).toMatch(new RegExp(`^<Tour lesson="${l.number.replace('.', '\\.')}"`));
      const m = tourMinutes(mdx);
      expect(m, l.slug).toBeGreaterThanOrEqual(5);
      expect(m, l.slug).toBeLessThanOrEqual(10);
    }
  });
});
