/**
 * What the lesson-figure tests read: an inline figure's text as a reader sees it (rendered, tags stripped), and a
 * lesson's MDX source, as written and with its line breaks folded (a phrase that a reflow may split).
 */
import { readFileSync } from 'node:fs';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

export const renderedText = (el: ReactElement): string => renderToStaticMarkup(el).replace(/<[^>]+>/g, '');

export function lessonSource(slug: string): { prose: string; flat: string } {
  const prose = readFileSync(new URL(`../lessons/${slug}.mdx`, import.meta.url), 'utf8');
  return { prose, flat: prose.replace(/\s+/g, ' ') };
}
