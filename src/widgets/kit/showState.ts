/**
 * Showing a state on the lesson's stage: scroll to a widget (or a section), reset and set its parameters, put its
 * transport at a time, highlight a read-out. Tour steps and "Try this" items both describe such a state and both
 * show it through here.
 */
import { findMark, type StageRegistry } from './stage';

export interface ShownState {
  /** Widget to show (its id), or a section heading's id. */
  widget?: string;
  section?: string;
  /** Widget parameters to set, after a reset to the defaults (locked parameters stay as the link set them). */
  set?: Record<string, string | number | boolean>;
  /** Transport time to show (animated widgets), paused there unless `play`. */
  time?: number;
  play?: boolean;
  /** Read-out or mark to highlight: its data-readout or data-mark id inside the widget. */
  highlight?: string;
}

/** Room the tour's caption bar takes at the bottom of the window, px. */
const CAPTION_BAR_ROOM = 190;

/** Parts of a state already shown, so a retry does not scroll or reset twice. */
export type ShownParts = Set<'scroll' | 'params' | 'time' | 'highlight'>;

/** Show what can be shown of a state now; false while its widget, transport or mark has not appeared yet. */
export function showState(
  stage: StageRegistry,
  state: ShownState,
  done: ShownParts,
  opts: { scroll?: boolean } = {},
): boolean {
  const target = stage
    .screens()
    .find((s) => (state.widget ? s.kind === 'widget' && s.id === state.widget : s.id === state.section));
  if (!target) return false;
  if (!done.has('scroll')) {
    if (opts.scroll !== false) target.element.scrollIntoView({ block: 'start' });
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
    const mark = findMark(target.element, state.highlight);
    if (mark) {
      if (!mark.hasAttribute('data-tour-highlight')) mark.setAttribute('data-tour-highlight', '');
      // Keep the highlighted read-out above the tour's caption bar when it sits below a tall picture (once).
      if (!done.has('highlight') && opts.scroll !== false && typeof window !== 'undefined') {
        const limit = window.innerHeight - CAPTION_BAR_ROOM;
        const bottom = mark.getBoundingClientRect().bottom;
        if (bottom > limit) window.scrollBy(0, bottom - limit);
      }
      done.add('highlight');
      // A widget still computing for the new settings may draw its read-outs anew (a streamed run's read-outs
      // are replaced when the run ends): keep the mark on until it is idle.
      if (target.element.getAttribute('aria-busy') === 'true') complete = false;
    } else complete = false;
  }
  return complete;
}

/**
 * Show a state, retrying while its widget loads or its read-out has not been drawn yet (a widget draws its read-outs
 * once its first result arrives). Returns a cancel function.
 */
export function showStateWhenReady(
  stage: StageRegistry,
  state: ShownState,
  opts: { scroll?: boolean } = {},
): () => void {
  const done: ShownParts = new Set();
  if (showState(stage, state, done, opts)) return () => {};
  const retry = setInterval(() => {
    if (showState(stage, state, done, opts)) stop();
  }, 250);
  const off = stage.subscribe(() => {
    if (showState(stage, state, done, opts)) stop();
  });
  // A state that never completes (a read-out the current settings do not draw) stops trying after a while.
  const giveUp = setTimeout(() => stop(), 20_000);
  function stop() {
    clearInterval(retry);
    clearTimeout(giveUp);
    off();
  }
  return stop;
}

/** Remove every tour highlight inside the stage's widgets. */
export function clearHighlights(stage: StageRegistry): void {
  for (const s of stage.screens())
    for (const el of s.element.querySelectorAll<HTMLElement>('[data-tour-highlight]'))
      el.removeAttribute('data-tour-highlight');
}
