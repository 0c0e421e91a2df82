/**
 * Several figures in one read-out or table cell, "a · b · c" (or the terms of a sum, "a + b + c"). Each figure
 * keeps its separator on its own line, so a narrow card (a phone, a projector) wraps between figures, never
 * before a "·" (app.css, `.figure-part`); a figure that wraps inside itself keeps the separator on its last line
 * (a no-break space before it). Each figure also keeps its unit (`FigureText`).
 */
import { Fragment, type ReactNode } from 'react';

export function SeparatedFigures({
  figures,
  separator = '·',
}: {
  figures: readonly ReactNode[];
  /** Between figures: '·' for a list, '+' for the terms of a sum. */
  separator?: string;
}) {
  const last = figures.length - 1;
  return (
    <>
      {figures.map((figure, i) => (
        <Fragment key={i}>
          <span className="figure-part">
            {typeof figure === 'string' ? <FigureText text={figure} /> : figure}
            {i < last ? `\u00a0${separator}` : null}
          </span>
          {i < last ? ' ' : null}
        </Fragment>
      ))}
    </>
  );
}

/** Words that join figures rather than name their unit: "4.57 s vs 1.02 s", "2 of 200,019". */
const JOINING_WORDS = new Set(['vs', 'of', 'and', 'or', 'per', 'to', 'in', 'at', 'on', 'from', 'then', 'by']);
/** A word that ends in a figure: "4.57", "43.8k", "$0.0263", "1.3×". */
const ENDS_IN_FIGURE = /\d[kMBT×%]?$/;

/**
 * Text whose figures keep their units on the line: "4.57 s vs 1.02 s" in a narrow card wraps between the two
 * figures, never between "1.02" and "s". The text itself is unchanged (what is copied or read aloud); only each
 * "figure unit" pair is kept from breaking (app.css, `.figure-unit`).
 */
export function FigureText({ text }: { text: string }) {
  const words = text.split(' ');
  const out: ReactNode[] = [];
  let plain = '';
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const next = words[i + 1];
    const keeps =
      next !== undefined && ENDS_IN_FIGURE.test(word) && /^[^\d\s(]/.test(next) && !JOINING_WORDS.has(next);
    if (keeps) {
      out.push(
        plain,
        <span key={i} className="figure-unit">
          {word} {next}
        </span>,
      );
      plain = i + 2 < words.length ? ' ' : '';
      i++;
    } else plain += word + (i + 1 < words.length ? ' ' : '');
  }
  out.push(plain);
  return <>{out.filter((n) => n !== '')}</>;
}
