/**
 * Several figures in one read-out or table cell, "a · b · c" (or the terms of a sum, "a + b + c"). Each figure
 * keeps its separator on its own line, so a narrow card (a phone, a projector) wraps between figures, never
 * before a "·" (app.css, `.figure-part`).
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
            {figure}
            {i < last ? ` ${separator}` : null}
          </span>
          {i < last ? ' ' : null}
        </Fragment>
      ))}
    </>
  );
}
