/**
 * What the lesson-figure tests read: an inline figure's text as a reader sees it (rendered, tags stripped), and a
 * lesson's MDX source, as written and with its line breaks folded (a phrase that a reflow may split).
 */
import { readFileSync } from 'node:fs';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/** The text a reader sees: tags stripped and the entities React escapes in text (', ", &, <, >) read back. */
export const renderedText = (el: ReactElement): string =>
  renderToStaticMarkup(el)
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export function lessonSource(slug: string): { prose: string; flat: string } {
  const prose = readFileSync(new URL(`../lessons/${slug}.mdx`, import.meta.url), 'utf8');
  return { prose, flat: prose.replace(/\s+/g, ' ') };
}
