import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactElement } from 'react';

export function render(el: ReactElement): string {
  return renderToStaticMarkup(el);
}

/** The root <svg> alone, one tag per line, so snapshot files open as images and diffs stay readable. */
export function pretty(markup: string): string {
  const svg = markup.slice(markup.indexOf('<svg'), markup.lastIndexOf('</svg>') + 6);
  return svg.replace(/></g, '>\n<') + '\n';
}

export function count(markup: string, re: RegExp): number {
  return (markup.match(new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g')) ?? [])
    .length;
}

/** Text contents of elements with the given class. */
export function texts(markup: string, className: string): string[] {
  const re = new RegExp(`<text class="${className}"[^>]*>([^<]*)</text>`, 'g');
  return [...markup.matchAll(re)].map((m) => m[1]);
}

/** Values of an attribute on elements carrying a class. */
export function attrs(markup: string, className: string, attr: string): string[] {
  const re = new RegExp(`<[a-z]+ class="${className}"[^>]*?\\s${attr}="([^"]*)"`, 'g');
  return [...markup.matchAll(re)].map((m) => m[1]);
}

export function noBadNumbers(markup: string): void {
  if (/NaN|Infinity|undefined/.test(markup))
    throw new Error(
      `markup contains NaN/Infinity/undefined: ${markup.match(/.{0,60}(NaN|Infinity|undefined).{0,60}/)?.[0]}`,
    );
}
