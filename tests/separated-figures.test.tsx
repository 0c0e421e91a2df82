import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { SeparatedFigures } from '../src/widgets/kit/SeparatedFigures';

describe('SeparatedFigures', () => {
  it('keeps each separator with the figure before it, so a line never starts with "·"', () => {
    const html = renderToStaticMarkup(<SeparatedFigures figures={['$0.00543', '$0.0174', '$0.00146']} />);
    expect(html).toBe(
      '<span class="figure-part">$0.00543 ·</span> <span class="figure-part">$0.0174 ·</span> ' +
        '<span class="figure-part">$0.00146</span>',
    );
  });

  it('joins the terms of a sum with "+", and a single figure has no separator', () => {
    expect(renderToStaticMarkup(<SeparatedFigures separator="+" figures={['a', 'b']} />)).toBe(
      '<span class="figure-part">a +</span> <span class="figure-part">b</span>',
    );
    expect(renderToStaticMarkup(<SeparatedFigures figures={['only']} />)).toBe(
      '<span class="figure-part">only</span>',
    );
  });

  it('keeps a figure made of several elements (a value and its aside) in one part', () => {
    const html = renderToStaticMarkup(
      <SeparatedFigures
        figures={[
          <>
            <b>45%</b> <i>request</i>
          </>,
          <b key="b">90%</b>,
        ]}
      />,
    );
    expect(html).toBe(
      '<span class="figure-part"><b>45%</b> <i>request</i> ·</span> <span class="figure-part"><b>90%</b></span>',
    );
  });
});
