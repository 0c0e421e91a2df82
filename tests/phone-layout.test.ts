/** The phone layout's width is stated twice, in app.css and in the kit's PHONE_MAX_WIDTH: they must agree. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PHONE_MAX_WIDTH } from '../src/widgets/kit/charts/useWindowSize';

describe('PHONE_MAX_WIDTH', () => {
  it('is the width under which app.css lays a widget out in one column, its picture first', () => {
    const css = readFileSync(new URL('../src/styles/app.css', import.meta.url), 'utf8');
    const at = css.indexOf(`@media (max-width: ${PHONE_MAX_WIDTH}px) {`);
    expect(at).toBeGreaterThan(0);
    const block = css.slice(at, css.indexOf('\n}\n', at));
    expect(block).toMatch(/\.widget-body \{\s*grid-template-columns: minmax\(0, 1fr\);/);
    expect(block).toMatch(/\.widget-main \{\s*order: -1;/);
  });
});
