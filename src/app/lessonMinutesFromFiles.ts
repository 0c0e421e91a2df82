/** Each lesson's counts and minutes from its MDX file (Node only: the script and the test read the files). */
import { resolve } from 'node:path';
import { WIDGETS } from '../widgets/registry';
import { LESSONS } from './lessons';
import { countExercises, countWords, estimateMinutes, type LessonCounts } from './lessonTime';

export type LessonMinutes = Record<string, LessonCounts & { minutes: number }>;

export function computeLessonMinutes(read: (path: string, enc: 'utf8') => string): LessonMinutes {
  const out: LessonMinutes = {};
  for (const { slug } of LESSONS) {
    const mdx = read(resolve(import.meta.dirname, `../../lessons/${slug}.mdx`), 'utf8');
    const counts: LessonCounts = {
      words: countWords(mdx),
      widgets: WIDGETS.filter((w) => w.lesson === slug).length,
      exercises: countExercises(mdx),
    };
    out[slug] = { ...counts, minutes: estimateMinutes(counts) };
  }
  return out;
}
