import { describe, expect, it } from 'vitest';
import { currentScreen, presentKeyAction, targetScreen } from '../src/app/presentation/keys';
import { isPresenting, withPresent } from '../src/app/presentation/LessonStage';
import { PRESENT_ZOOM, projectedZoom } from '../src/widgets/kit/charts/zoom';

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
    let last = 1;
    for (let w = 800; w <= 4000; w += 7) {
      const z = projectedZoom(w, (w * 9) / 16);
      expect(Math.round(z * 20)).toBeCloseTo(z * 20, 9);
      expect(z).toBeGreaterThanOrEqual(last);
      last = z;
    }
  });
});
