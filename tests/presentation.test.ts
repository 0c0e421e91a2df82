import { describe, expect, it } from 'vitest';
import {
  currentScreen,
  pageOverlap,
  presentKeyAction,
  presentScrollTarget,
  targetScreen,
  type ScreenBox,
} from '../src/app/presentation/keys';
import { isPresenting, withPresent } from '../src/app/presentation/LessonStage';
import {
  PRESENT_CHART_ZOOM,
  PRESENT_ZOOM,
  projectedChartZoom,
  projectedZoom,
} from '../src/widgets/kit/charts/zoom';

describe('presentation keys', () => {
  it('a clicker (PageDown/PageUp) moves screens even from a focused slider, but not while typing', () => {
    expect(presentKeyAction('PageDown', 'control')).toBe('next');
    expect(presentKeyAction('PageUp', 'control')).toBe('prev');
    expect(presentKeyAction('PageDown', 'typing')).toBeNull();
  });
  it('arrows, Home/End and Escape move only from the page, so controls keep their arrow keys', () => {
    expect(presentKeyAction('ArrowRight', 'page')).toBe('next');
    expect(presentKeyAction('ArrowLeft', 'page')).toBe('prev');
    expect(presentKeyAction('ArrowRight', 'control')).toBeNull();
    expect(presentKeyAction('Home', 'page')).toBe('first');
    expect(presentKeyAction('End', 'page')).toBe('last');
    expect(presentKeyAction('Escape', 'page')).toBe('exit');
    expect(presentKeyAction('Escape', 'control')).toBeNull();
    expect(presentKeyAction('ArrowRight', 'page', { ctrl: true })).toBeNull();
    expect(presentKeyAction('a', 'page')).toBeNull();
  });
  it("a clicker's blank-screen button blanks black (B, .) or white (W, ,) from anywhere but a text field", () => {
    for (const k of ['b', 'B', '.']) expect(presentKeyAction(k, 'page')).toBe('black');
    for (const k of ['w', 'W', ',']) expect(presentKeyAction(k, 'control')).toBe('white');
    expect(presentKeyAction('b', 'typing')).toBeNull();
    expect(presentKeyAction('b', 'page', { ctrl: true })).toBeNull();
  });
  it('next is the first screen below the top, previous the last one above it', () => {
    // Screens at -900, -20, 0 (current), 700, 1600 px from the viewport top.
    const tops = [-900, -20, 0, 700, 1600];
    expect(targetScreen(tops, 'next')).toBe(3);
    expect(targetScreen(tops, 'prev')).toBe(1);
    expect(targetScreen(tops, 'first')).toBe(0);
    expect(targetScreen(tops, 'last')).toBe(4);
    expect(currentScreen(tops)).toBe(2);
    expect(targetScreen([-50, -10], 'next')).toBeNull();
    expect(targetScreen([0, 500], 'prev')).toBeNull();
    expect(targetScreen([], 'next')).toBeNull();
  });
});

describe('a screen taller than the window', () => {
  // A 720-pixel window (a window of 648 px and 72 px kept from the last). The page: a heading at 4,000, a widget
  // 2,580 px tall at 5,000 (its end at 7,580), the next heading at 7,800 and a short widget at 8,000.
  const H = 720;
  const page = [
    { top: 4000, bottom: 4060 },
    { top: 5000, bottom: 7580 },
    { top: 7800, bottom: 7860 },
    { top: 8000, bottom: 8500 },
  ];
  /** The boxes relative to the window at scroll position y. */
  const boxes = (y: number): ScreenBox[] => page.map((b) => ({ top: b.top - y, bottom: b.bottom - y }));
  const next = (y: number) => presentScrollTarget(boxes(y), 'next', H, y);
  const prev = (y: number) => presentScrollTarget(boxes(y), 'prev', H, y);
  const END = 7580 - H; // the widget's last window: its bottom at the window's bottom

  it('keeps a little of the last window on screen', () => {
    expect(pageOverlap(720)).toBe(72);
    expect(pageOverlap(1080)).toBe(108);
    expect(pageOverlap(300)).toBe(48);
  });

  it('next scrolls within it a window at a time, never past its end, and then goes to the next screen', () => {
    expect(next(4000)).toEqual({ top: 5000, screen: 1 });
    expect(next(5000)).toEqual({ top: 5648, screen: 1 });
    expect(next(5648)).toEqual({ top: 6296, screen: 1 });
    // The next window would run past the widget's end: it stops with the widget's bottom at the window's bottom.
    expect(next(6296)).toEqual({ top: END, screen: 1 });
    expect(next(END)).toEqual({ top: 7800, screen: 2 });
    // A scroll that left a few pixels (rounding) is at the end already.
    expect(next(END - 5)).toEqual({ top: 7800, screen: 2 });
    // A screen that fits the window: straight to the next one, as before.
    expect(next(7800)).toEqual({ top: 8000, screen: 3 });
    expect(next(8000)).toBeNull();
  });

  it('from the middle of a tall screen (the page scrolled by hand), next shows more of it', () => {
    expect(next(5500)).toEqual({ top: 6148, screen: 1 });
    // From the prose before a screen, next goes to its top.
    expect(next(4100)).toEqual({ top: 5000, screen: 1 });
  });

  it('prev scrolls back within it, never above its top, and then goes to the previous screen', () => {
    expect(prev(END)).toEqual({ top: END - 648, screen: 1 });
    expect(prev(5300)).toEqual({ top: 5000, screen: 1 });
    expect(prev(5000)).toEqual({ top: 4000, screen: 0 });
    expect(prev(4000)).toBeNull();
  });

  it('prev from the next screen goes back to the last window of a tall one, where next left it', () => {
    expect(prev(7800)).toEqual({ top: END, screen: 1 });
    expect(next(END)).toEqual({ top: 7800, screen: 2 });
    // From the prose below a tall screen too; a screen that fits is shown from its top.
    expect(prev(7700)).toEqual({ top: END, screen: 1 });
    expect(prev(8000)).toEqual({ top: 7800, screen: 2 });
  });

  it('paging down and back up shows every part of the tall screen, each window overlapping the last', () => {
    const walk = (from: number, move: (y: number) => { top: number } | null) => {
      const ys: number[] = [];
      for (let y: number | undefined = from; y !== undefined; y = move(y)?.top) ys.push(y);
      return ys;
    };
    expect(walk(4000, next)).toEqual([4000, 5000, 5648, 6296, END, 7800, 8000]);
    expect(walk(8000, prev)).toEqual([8000, 7800, END, END - 648, END - 2 * 648, 5000, 4000]);
  });

  it('first and last go to a screen’s top; no screens, no move', () => {
    expect(presentScrollTarget(boxes(5500), 'first', H, 5500)).toEqual({ top: 4000, screen: 0 });
    expect(presentScrollTarget(boxes(5500), 'last', H, 5500)).toEqual({ top: 8000, screen: 3 });
    expect(presentScrollTarget([], 'next', H, 0)).toBeNull();
    expect(presentScrollTarget(boxes(5000), 'exit', H, 5000)).toBeNull();
  });
});

describe('?present in the URL', () => {
  it('is read and written without touching the other parameters', () => {
    expect(isPresenting('?present')).toBe(true);
    expect(isPresenting('?a.b=1&present')).toBe(true);
    expect(isPresenting('?a.b=1')).toBe(false);
    expect(withPresent('?a.b=1', true)).toBe('?a.b=1&present');
    expect(withPresent('?a.b=1&present', false)).toBe('?a.b=1');
    expect(withPresent('', true)).toBe('?present');
    expect(withPresent('?present', false)).toBe('');
  });
});

describe('the projected zoom', () => {
  it('is 1.5× on a 1920 × 1080 screen, in proportion to the tighter side, never under 1 or over 3', () => {
    expect(projectedZoom(1920, 1080)).toBe(PRESENT_ZOOM);
    expect(projectedZoom(2560, 1440)).toBe(2);
    expect(projectedZoom(3840, 2160)).toBe(3);
    expect(projectedZoom(7680, 4320)).toBe(3);
    expect(projectedZoom(1600, 900)).toBe(1.25);
    expect(projectedZoom(1920, 900)).toBe(1.25); // the height is the tighter side
    expect(projectedZoom(1280, 800)).toBe(1);
    expect(projectedZoom(1024, 768)).toBe(1);
    expect(projectedZoom(0, 0)).toBe(PRESENT_ZOOM); // no window (a test, a server): the design size
  });
  it('moves in steps of 0.05 and never falls as the window grows', () => {
    for (const zoom of [projectedZoom, projectedChartZoom]) {
      let last = 1;
      for (let w = 800; w <= 4000; w += 7) {
        const z = zoom(w, (w * 9) / 16);
        expect(Math.round(z * 20)).toBeCloseTo(z * 20, 9);
        expect(z).toBeGreaterThanOrEqual(last);
        last = z;
      }
    }
  });
  it('draws charts larger: a tick label (11 units) at least 16 px on a 1280 × 720 projector, in proportion above', () => {
    expect(projectedChartZoom(1280, 720)).toBe(1.5);
    expect(11 * projectedChartZoom(1280, 720)).toBeGreaterThanOrEqual(16);
    expect(projectedChartZoom(1280, 800)).toBe(1.5);
    expect(projectedChartZoom(1920, 1080)).toBe(PRESENT_CHART_ZOOM);
    expect(PRESENT_CHART_ZOOM / projectedChartZoom(1280, 720)).toBe(1.5); // 1920 / 1280
    expect(projectedChartZoom(2560, 1440)).toBe(3);
    expect(projectedChartZoom(1600, 900)).toBe(1.85);
    expect(projectedChartZoom(1024, 768)).toBe(1.2);
    expect(projectedChartZoom(3840, 2160)).toBe(4.5);
    expect(projectedChartZoom(7680, 4320)).toBe(4.5);
    expect(projectedChartZoom(390, 844)).toBe(1); // never under reading size
    expect(projectedChartZoom(0, 0)).toBe(PRESENT_CHART_ZOOM);
    for (const [w, h] of [
      [1280, 720],
      [1366, 768],
      [1920, 1080],
      [2560, 1440],
    ])
      expect(projectedChartZoom(w, h)).toBeGreaterThan(projectedZoom(w, h));
  });
});
