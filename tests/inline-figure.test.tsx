import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { InlineFigure } from '../src/widgets/kit/InlineFigure';

describe('InlineFigure', () => {
  it('shows a busy "…" until the value arrives, then the value with how it was computed', () => {
    expect(renderToStaticMarkup(<InlineFigure value={null} />)).toBe(
      '<span class="figure figure-pending" aria-busy="true">…</span>',
    );
    expect(renderToStaticMarkup(<InlineFigure value="4,427 tokens" title="o200k_base" />)).toBe(
      '<span class="figure" title="o200k_base">4,427 tokens</span>',
    );
    // A failed computation says so, never "…" for ever.
    expect(renderToStaticMarkup(<InlineFigure value={null} failed />)).toBe(
      '<span class="figure figure-pending">[not computed]</span>',
    );
  });

  it('is the one component that draws a lesson figure (no widget keeps its own copy)', () => {
    const root = new URL('../src/widgets/', import.meta.url).pathname;
    const copies = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.tsx') && !f.endsWith('InlineFigure.tsx'))
      .filter((f) =>
        /className="figure figure-pending"|^function Fig(ure)?\(/m.test(readFileSync(join(root, f), 'utf8')),
      );
    expect(copies).toEqual([]);
  });
});
