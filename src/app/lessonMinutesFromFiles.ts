/** Each lesson's counts and minutes from its MDX file (Node only: the script and the test read the files). */
import { resolve } from 'node:path';
import { WIDGETS } from '../widgets/registry';
import { LESSONS } from './lessons';
import {
  countExercises,
  countWords,
  estimateMinutes,
  tourBlock,
  tourMinutes,
  type LessonCounts,
} from './lessonTime';

export type LessonMinutes = Record<string, LessonCounts & { minutes: number }>;

export function computeLessonMinutes(read: (path: string, enc: 'utf8') => string): LessonMinutes {
  const out: LessonMinutes = {};
  for (const { slug } of LESSONS) {
    const mdx = read(resolve(import.meta.dirname, `../../lessons/${slug}.mdx`), 'utf8');
    const tour = tourBlock(mdx);
    // The tour's captions are heard or read while it plays: its time is the tour's, not reading time.
    const counts: LessonCounts = {
      words: countWords(tour ? mdx.replace(tour, ' ') : mdx),
      widgets: WIDGETS.filter((w) => w.lesson === slug).length,
      exercises: countExercises(mdx),
      ...(tour ? { tourMinutes: Math.round(tourMinutes(mdx) * 10) / 10 } : {}),
    };
    out[slug] = { ...counts, minutes: estimateMinutes(counts) };
  }
  return out;
}
