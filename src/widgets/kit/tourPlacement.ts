/**
 * Where a tour step scrolls to (pure): the step's target (a widget, a section heading, or the read-out or chart it
 * highlights) must end up in the part of the window nothing fixed covers: below any fixed header, above the tour's
 * caption bar. showState.ts measures the page and applies the answer.
 */

/** A vertical extent, px: top < bottom. */
export interface Span {
  top: number;
  bottom: number;
}

export interface Placement {
  /** The element to show, in page coordinates (its client rect plus the scroll position). */
  target: Span;
  /**
   * What encloses it (the widget around a highlighted chart or read-out), page coordinates: shown from its top as
   * far as the target still fits. Defaults to the target itself.
   */
  context?: Span;
  /** The part of the window nothing covers, in window coordinates (0 is the window's top edge). */
  free: Span;
  /** The scroll position now, px. */
  scrollTop: number;
  /** The largest scroll position the page allows (its height minus the window's), px. */
  maxScrollTop?: number;
  /**
   * 'align' (a step's first placement): the context's top at the free band's top, moved only as far as the target
   * needs to fit; 'minimal' (a later check): move only if the target does not fit where it is.
   */
  mode?: 'align' | 'minimal';
}

/**
 * The scroll position that puts `target` in the free band: its top below the band's top and, where it fits, its
 * bottom above the band's bottom; a target taller than the band shows its top.
 */
export function placementScrollTop({
  target,
  context = target,
  free,
  scrollTop,
  maxScrollTop = Infinity,
  mode = 'align',
}: Placement): number {
  // Scroll positions at which the target's top is at the band's top (the largest that keeps it below) and its
  // bottom at the band's bottom (the smallest that keeps it above).
  const topAtTop = target.top - free.top;
  const bottomAtBottom = target.bottom - free.bottom;
  let s: number;
  if (bottomAtBottom > topAtTop) s = topAtTop;
  else {
    const wanted = mode === 'align' ? context.top - free.top : scrollTop;
    s = Math.min(topAtTop, Math.max(bottomAtBottom, wanted));
  }
  return Math.round(Math.max(0, Math.min(maxScrollTop, s)));
}
