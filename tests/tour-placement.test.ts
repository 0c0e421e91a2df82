/**
 * Where a tour step scrolls (src/widgets/kit/tourPlacement.ts): its target lands in the band of the window that the
 * caption bar and any fixed header leave free, hand-computed cases. The page as a browser draws it:
 * e2e/tour-placement.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { placementScrollTop } from '../src/widgets/kit/tourPlacement';

// A 720-pixel window whose caption bar begins at 560 (160 px of caption), no header, 10 px kept on either side.
const FREE = { top: 10, bottom: 550 };

/** Where a span of the page sits in the window once scrolled to `s`. */
const inWindow = (span: { top: number; bottom: number }, s: number) => ({
  top: span.top - s,
  bottom: span.bottom - s,
});

describe('placementScrollTop', () => {
  it('a widget that fits: its top at the free band’s top', () => {
    const widget = { top: 3000, bottom: 3400 };
    expect(placementScrollTop({ target: widget, free: FREE, scrollTop: 0 })).toBe(2990);
  });

  it('a widget taller than the free band: its top shows, whatever the mode', () => {
    const widget = { top: 3000, bottom: 4000 };
    expect(placementScrollTop({ target: widget, free: FREE, scrollTop: 0 })).toBe(2990);
    expect(placementScrollTop({ target: widget, free: FREE, scrollTop: 5000, mode: 'minimal' })).toBe(2990);
  });

  it('07.01 step 5: the lower chart at the bottom of a tall widget ends above the caption, not under it', () => {
    // The widget runs 3000–3900; its lower chart 3700–3860 (160 px). Aligning the widget's top (2990) would put the
    // chart at 710–870, under the caption bar: the chart's bottom goes to the band's bottom instead.
    const widget = { top: 3000, bottom: 3900 };
    const chart = { top: 3700, bottom: 3860 };
    const s = placementScrollTop({ target: chart, context: widget, free: FREE, scrollTop: 0 });
    expect(s).toBe(3860 - 550);
    expect(inWindow(chart, s)).toEqual({ top: 390, bottom: 550 });
    // The widget's top is off screen: the chart is what the step is about.
    expect(inWindow(widget, s).top).toBeLessThan(0);
  });

  it('a read-out near the widget’s top: the widget is shown from its top, the read-out inside the band', () => {
    const widget = { top: 3000, bottom: 3900 };
    const readout = { top: 3060, bottom: 3090 };
    expect(placementScrollTop({ target: readout, context: widget, free: FREE, scrollTop: 0 })).toBe(2990);
  });

  it('a mark taller than the band shows its top, even inside a context', () => {
    const widget = { top: 3000, bottom: 4200 };
    const chart = { top: 3300, bottom: 4000 };
    expect(placementScrollTop({ target: chart, context: widget, free: FREE, scrollTop: 0 })).toBe(3290);
  });

  it('a fixed header: the target’s top sits below it', () => {
    const free = { top: 64 + 10, bottom: 550 };
    const widget = { top: 3000, bottom: 3200 };
    const s = placementScrollTop({ target: widget, free, scrollTop: 0 });
    expect(inWindow(widget, s).top).toBe(74);
  });

  it('a taller caption (a phone’s half screen before, a third now) leaves less room: the same chart moves up', () => {
    const widget = { top: 3000, bottom: 3900 };
    const chart = { top: 3700, bottom: 3860 };
    const half = placementScrollTop({
      target: chart,
      context: widget,
      free: { top: 10, bottom: 412 },
      scrollTop: 0,
    });
    const third = placementScrollTop({
      target: chart,
      context: widget,
      free: { top: 10, bottom: 550 },
      scrollTop: 0,
    });
    expect(inWindow(chart, half).bottom).toBe(412);
    expect(inWindow(chart, third).bottom).toBe(550);
  });

  it('minimal mode: a target already in the band stays put; one partly under the caption moves just enough', () => {
    const chart = { top: 3700, bottom: 3860 };
    // At 3400 the chart is at 300–460: inside the band.
    expect(placementScrollTop({ target: chart, free: FREE, scrollTop: 3400, mode: 'minimal' })).toBe(3400);
    // At 3250 it is at 450–610, 60 px under the caption: scroll 60 px on.
    expect(placementScrollTop({ target: chart, free: FREE, scrollTop: 3250, mode: 'minimal' })).toBe(3310);
    // At 3750 its top is above the band: scroll back to its top.
    expect(placementScrollTop({ target: chart, free: FREE, scrollTop: 3750, mode: 'minimal' })).toBe(3690);
  });

  it('stays within what the page can scroll, and rounds to whole pixels', () => {
    expect(placementScrollTop({ target: { top: 5, bottom: 40 }, free: FREE, scrollTop: 100 })).toBe(0);
    expect(
      placementScrollTop({
        target: { top: 9000, bottom: 9100 },
        free: FREE,
        scrollTop: 0,
        maxScrollTop: 8800,
      }),
    ).toBe(8800);
    expect(placementScrollTop({ target: { top: 1000.4, bottom: 1100 }, free: FREE, scrollTop: 0 })).toBe(990);
  });
});
