/**
 * How long a lesson takes, estimated from what is on the page rather than typed by hand: its prose at a reading
 * speed for technical text, plus time to explore each widget and to work each exercise (plus its guided tour,
 * when it has one). `npm run lesson-minutes` writes lessonMinutes.ts from the MDX; a unit test keeps it current.
 */

/**
 * Reading speed for studying technical prose. Silent reading of English non-fiction averages 238 words a minute
 * (Brysbaert 2019, "How many words do we read per minute?", J. Memory and Language 109), but that is reading to
 * understand once; reading to learn and remember is Carver's "learning" and "memorizing" gears, about 200 and
 * 138 words a minute for college readers (Carver 1990, "Reading Rate: A Review of Research and Theory"). Lessons
 * with formulas and figures to check sit between them: 150.
 */
export const WORDS_PER_MINUTE = 150;
/**
 * Exploring one widget: its caption and about three "Try this" items of set-look-explain at ~1.5 minutes each
 * (our estimate, to be replaced by each lesson's measured tour).
 */
export const MINUTES_PER_WIDGET = 5;
/** Working one exercise with a calculator (our estimate). */
export const MINUTES_PER_EXERCISE = 3;

export interface LessonCounts {
  words: number;
  widgets: number;
  exercises: number;
  /** The guided tour's length, when the lesson has one. */
  tourMinutes?: number;
}

/** Words a reader reads in an MDX lesson: prose, with each inline figure and each formula counted as one word. */
export function countWords(mdx: string): number {
  const text = mdx
    .replace(/^import .*$/gm, ' ')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\$\$[\s\S]*?\$\$/g, ' formula ')
    .replace(/\$[^$\n]+\$/g, ' formula ')
    .replace(/<[A-Z][\w.]*[^>]*\/>/g, ' figure ')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/[#*_`|>-]+/g, ' ');
  return (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’.,:%]*/gu) ?? []).length;
}

/** The guided tour's block (`<Tour …>…</Tour>`), or '' when the lesson has none. */
export function tourBlock(mdx: string): string {
  const m = /<Tour\b[\s\S]*?<\/Tour>/.exec(mdx);
  return m ? m[0] : '';
}

/** The tour's length in minutes: the sum of its steps' `seconds`. */
export function tourMinutes(mdx: string): number {
  let s = 0;
  for (const m of tourBlock(mdx).matchAll(/seconds=\{(\d+(?:\.\d+)?)\}/g)) s += Number(m[1]);
  return s / 60;
}

/** Exercises placed in the lesson (`<SomethingExercise …/>` outside import lines). */
export function countExercises(mdx: string): number {
  return (mdx.replace(/^import .*$/gm, '').match(/<[A-Z]\w*Exercise\b/g) ?? []).length;
}

/** Whole minutes, rounded to the nearest 5 (an estimate should not look more precise than it is). */
export function estimateMinutes(c: LessonCounts): number {
  const raw =
    c.words / WORDS_PER_MINUTE +
    c.widgets * MINUTES_PER_WIDGET +
    c.exercises * MINUTES_PER_EXERCISE +
    (c.tourMinutes ?? 0);
  return Math.max(5, Math.round(raw / 5) * 5);
}
