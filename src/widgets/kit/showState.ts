/**
 * Showing a state on the lesson's stage: scroll to a widget (or a section), reset and set its parameters, put its
 * transport at a time, highlight a read-out or chart. Tour steps and "Try this" items both describe such a state
 * and both show it through here.
 *
 * A tour step scrolls its target (the highlighted read-out or chart, else the widget or heading) into the part of
 * the window nothing covers: below any fixed header (the page's `scroll-padding-top` and the target's
 * `scroll-margin-top`) and above the tour's caption bar, which the tour measures (`coveredBelow`). Where the
 * placement is worked out: tourPlacement.ts.
 */
import { findMark, type StageRegistry } from './stage';
import { placementScrollTop, type Span } from './tourPlacement';

export interface ShownState {
  /** Widget to show (its id), or a section heading's id. */
  widget?: string;
  section?: string;
  /** Widget parameters to set, after a reset to the defaults (locked parameters stay as the link set them). */
  set?: Record<string, string | number | boolean>;
  /** Transport time to show (animated widgets), paused there unless `play`. */
  time?: number;
  play?: boolean;
  /** Read-out, chart or mark to highlight: its data-readout or data-mark id inside the widget. */
  highlight?: string;
}

export interface ShowOptions {
  /** False: show the state where it is, without scrolling ("Show me", beside the widget). */
  scroll?: boolean;
  /** Where what covers the window from below begins (the tour's caption bar), px from the window's top. */
  coveredBelow?: () => number;
}

/** Room kept between the target and what covers the window (a highlight's ring is drawn 7 px outside it), px. */
const GAP = 10;
/** After a state is shown, how long its placement follows the widget's layout (a result redrawn), ms at least. */
const SETTLE_MS = 1500;
/** ... and at most, while the widget is still computing. */
const SETTLE_MAX_MS = 20_000;

/** Parts of a state already shown, so a retry does not scroll or reset twice. */
export type ShownParts = Set<'scroll' | 'params' | 'time' | 'highlight'>;

/**
 * What a state's showing has done so far: its parts, and the scroll it last asked for while that scroll may still be
 * on its way (a smooth scroll: until `scrollEnds`, performance.now() ms).
 */
export interface ShowProgress {
  done: ShownParts;
  scrollTop: number | null;
  scrollEnds: number;
}

/** How long a smooth scroll may take, ms (Chromium's take about half a second, whatever the distance). */
const SMOOTH_SCROLL_MS = 1000;

function pageSpan(el: Element): Span {
  const r = el.getBoundingClientRect();
  return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
}

function px(value: string): number {
  const v = parseFloat(value);
  return Number.isFinite(v) ? v : 0;
}

/** The window's band nothing fixed covers, for a target inside `context`. */
function freeBand(context: HTMLElement, opts: ShowOptions): Span {
  const header = px(getComputedStyle(document.documentElement).scrollPaddingTop);
  const top = header + Math.max(GAP, px(getComputedStyle(context).scrollMarginTop));
  const below = Math.min(window.innerHeight, opts.coveredBelow?.() ?? window.innerHeight);
  return { top, bottom: Math.max(top + 1, below - GAP) };
}

/** Scroll so that `target` (inside `context`) sits in the free band; 'align' on a step's first placement. */
function place(
  target: HTMLElement,
  context: HTMLElement,
  progress: ShowProgress,
  opts: ShowOptions,
  mode: 'align' | 'minimal',
): void {
  const root = document.scrollingElement ?? document.documentElement;
  // A smooth scroll still on its way: a later check starts from where it is going. Otherwise from where the page is
  // (which the browser's scroll anchoring may have moved since, when content above grew).
  const now = performance.now();
  const current =
    progress.scrollTop !== null && now < progress.scrollEnds ? progress.scrollTop : window.scrollY;
  const top = placementScrollTop({
    target: pageSpan(target),
    context: pageSpan(context),
    free: freeBand(context, opts),
    scrollTop: current,
    maxScrollTop: root.scrollHeight - window.innerHeight,
    mode,
  });
  if (mode === 'minimal' && Math.abs(top - current) < 2) return;
  progress.scrollTop = top;
  progress.scrollEnds = getComputedStyle(root).scrollBehavior === 'smooth' ? now + SMOOTH_SCROLL_MS : 0;
  window.scrollTo({ top });
}

/**
 * What shows a mark: the mark itself, or where it is not drawn (a read-out inside a formula the reader has hidden)
 * its nearest drawn enclosure inside the widget (the read-out's card).
 */
function shownMark(widget: HTMLElement, id: string): HTMLElement | null {
  let el = findMark(widget, id);
  while (el && el !== widget && el.getClientRects().length === 0 && el.parentElement) el = el.parentElement;
  return el;
}

function targetOf(stage: StageRegistry, state: ShownState): HTMLElement | null {
  const screen = stage
    .screens()
    .find((s) => (state.widget ? s.kind === 'widget' && s.id === state.widget : s.id === state.section));
  return screen?.element ?? null;
}

/** Show what can be shown of a state now; false while its widget, transport or mark has not appeared yet. */
export function showState(
  stage: StageRegistry,
  state: ShownState,
  progress: ShowProgress,
  opts: ShowOptions = {},
): boolean {
  const { done } = progress;
  const target = targetOf(stage, state);
  if (!target) return false;
  const scroll = opts.scroll !== false && typeof window !== 'undefined';
  const mark = state.highlight ? shownMark(target, state.highlight) : null;
  let placedMark = false;
  if (!done.has('scroll')) {
    // The highlighted read-out or chart if it is drawn already, else the widget until it is.
    if (scroll) place(mark ?? target, target, progress, opts, 'align');
    placedMark = !!mark;
    done.add('scroll');
  }
  let complete = true;
  if (state.widget) {
    if (!done.has('params')) {
      const p = stage.params(state.widget);
      if (p) {
        const st = p.store.getState();
        st.reset();
        for (const [k, v] of Object.entries(state.set ?? {})) st.set(k, v);
        done.add('params');
        // The widget has not rendered the new settings yet: its read-outs and aria-busy are still the old
        // settings' (a re-run may draw them anew), so judge them at the next check, not now.
        complete = false;
      } else complete = false;
    }
    if ((state.time !== undefined || state.play) && !done.has('time')) {
      const tr = stage.transport(state.widget);
      if (tr) {
        tr.pause();
        if (state.time !== undefined) tr.seek(state.time);
        if (state.play) tr.play();
        done.add('time');
      } else complete = false;
    }
  }
  if (state.highlight) {
    if (mark) {
      if (!mark.hasAttribute('data-tour-highlight')) mark.setAttribute('data-tour-highlight', '');
      // A mark drawn after the widget was placed: place the mark (once).
      if (!done.has('highlight') && scroll && !placedMark) place(mark, target, progress, opts, 'align');
      done.add('highlight');
      // A widget still computing for the new settings may draw its read-outs anew (a streamed run's read-outs
      // are replaced when the run ends): keep the mark on until it is idle.
      if (target.getAttribute('aria-busy') === 'true') complete = false;
    } else complete = false;
  }
  return complete;
}

/**
 * Once a state is shown, keep its target placed while the widget's layout settles (the result for the new settings
 * drawn, read-outs a line taller): for a while, and until the widget is idle. The reader's own scrolling, keys or
 * clicks end it. Returns a cancel function.
 */
function followLayout(
  stage: StageRegistry,
  state: ShownState,
  progress: ShowProgress,
  opts: ShowOptions,
): () => void {
  const widget = targetOf(stage, state);
  if (!widget || typeof ResizeObserver === 'undefined') return () => {};
  const started = Date.now();
  const check = () => {
    const target = targetOf(stage, state);
    if (!target) return;
    const mark = state.highlight ? shownMark(target, state.highlight) : null;
    place(mark ?? target, target, progress, opts, 'minimal');
    if (Date.now() - started > SETTLE_MAX_MS) stop();
    else if (Date.now() - started > SETTLE_MS && target.getAttribute('aria-busy') !== 'true') stop();
  };
  const observer = new ResizeObserver(check);
  observer.observe(widget);
  const tick = setInterval(check, 250);
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  for (const e of events) window.addEventListener(e, stop, { capture: true, passive: true });
  function stop() {
    observer.disconnect();
    clearInterval(tick);
    for (const e of events) window.removeEventListener(e, stop, { capture: true });
  }
  return stop;
}

/**
 * Show a state, retrying while its widget loads or its read-out has not been drawn yet (a widget draws its read-outs
 * once its first result arrives). Returns a cancel function.
 */
export function showStateWhenReady(
  stage: StageRegistry,
  state: ShownState,
  opts: ShowOptions = {},
): () => void {
  const progress: ShowProgress = { done: new Set(), scrollTop: null, scrollEnds: 0 };
  const scroll = opts.scroll !== false && typeof window !== 'undefined';
  let unfollow = () => {};
  const shown = () => {
    if (scroll) unfollow = followLayout(stage, state, progress, opts);
  };
  if (showState(stage, state, progress, opts)) {
    shown();
    return () => unfollow();
  }
  const retry = setInterval(() => {
    if (showState(stage, state, progress, opts)) done();
  }, 250);
  const off = stage.subscribe(() => {
    if (showState(stage, state, progress, opts)) done();
  });
  // A state that never completes (a read-out the current settings do not draw) stops trying after a while.
  const giveUp = setTimeout(() => stop(), 20_000);
  function stop() {
    clearInterval(retry);
    clearTimeout(giveUp);
    off();
  }
  function done() {
    stop();
    shown();
  }
  return () => {
    stop();
    unfollow();
  };
}

/** Remove every tour highlight inside the stage's widgets. */
export function clearHighlights(stage: StageRegistry): void {
  for (const s of stage.screens())
    for (const el of s.element.querySelectorAll<HTMLElement>('[data-tour-highlight]'))
      el.removeAttribute('data-tour-highlight');
}
