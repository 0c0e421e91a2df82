import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { FigureText, SeparatedFigures } from '../src/widgets/kit/SeparatedFigures';

describe('SeparatedFigures', () => {
  it('keeps each separator with the figure before it, so a line never starts with "·"', () => {
    const html = renderToStaticMarkup(<SeparatedFigures figures={['$0.00543', '$0.0174', '$0.00146']} />);
    expect(html).toBe(
      '<span class="figure-part">$0.00543\u00a0·</span> <span class="figure-part">$0.0174\u00a0·</span> ' +
        '<span class="figure-part">$0.00146</span>',
    );
  });

  it('joins the terms of a sum with "+", and a single figure has no separator', () => {
    expect(renderToStaticMarkup(<SeparatedFigures separator="+" figures={['a', 'b']} />)).toBe(
      '<span class="figure-part">a\u00a0+</span> <span class="figure-part">b</span>',
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
      '<span class="figure-part"><b>45%</b> <i>request</i>\u00a0·</span> <span class="figure-part"><b>90%</b></span>',
    );
  });
});

describe('FigureText', () => {
  const html = (text: string) => renderToStaticMarkup(<FigureText text={text} />);
  const text = (markup: string) => markup.replace(/<[^>]+>/g, '');

  it('keeps each figure with its unit and leaves the text as it was', () => {
    const out = html('4.57 s vs 1.02 s');
    expect(out).toBe('<span class="figure-unit">4.57 s</span> vs <span class="figure-unit">1.02 s</span>');
    expect(text(out)).toBe('4.57 s vs 1.02 s');
  });

  it('takes a word that joins figures, a number or a parenthesis for no unit', () => {
    expect(html('2 of 200,019')).toBe('2 of 200,019');
    expect(html('6.54k; 200; 27')).toBe('6.54k; 200; 27');
    expect(html('3 (est.)')).toBe('3 (est.)');
  });

  it('handles figures in the middle of a sentence, and text without figures', () => {
    const out = html('reload by 1.04× at 43.8k tokens now');
    expect(out).toBe('reload by 1.04× at <span class="figure-unit">43.8k tokens</span> now');
    expect(text(out)).toBe('reload by 1.04× at 43.8k tokens now');
    expect(html('fixed by the schema')).toBe('fixed by the schema');
  });
});
