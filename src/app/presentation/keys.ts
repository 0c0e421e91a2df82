/**
 * What a key does in presentation mode. A clicker sends PageDown/PageUp (some send →/←): PageDown/PageUp always
 * move between screens, except while typing; arrows, Home/End and Escape move only when focus is on the page
 * itself, so a focused slider or chart read-out keeps its arrow keys. A clicker's blank-screen button sends B or
 * "." (black) and W or "," (white), as PowerPoint and Keynote read them; any key brings the screen back.
 * A screen taller than the window (every widget is, on a projector) is shown a window at a time before the next
 * screen (`presentScrollTarget`), so a clicker reaches its lower half too.
 */
export type PresentAction = 'next' | 'prev' | 'first' | 'last' | 'exit' | 'black' | 'white';

/** Where keyboard focus is: typing into a field, on a control that uses arrows, or on the page. */
export type FocusKind = 'typing' | 'control' | 'page';

const TYPING_INPUTS = new Set(['text', 'number', 'search', 'email', 'url', 'tel', 'password']);

export function focusKind(el: Element | null): FocusKind {
  if (!el) return 'page';
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || (el as HTMLElement).isContentEditable) return 'typing';
  if (tag === 'input') {
    const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
    return TYPING_INPUTS.has(type) ? 'typing' : type === 'range' || type === 'radio' ? 'control' : 'page';
  }
  if (tag === 'select') return 'control';
  const role = el.getAttribute('role');
  if (role === 'slider' || role === 'tab' || role === 'radio' || role === 'menuitem' || role === 'listbox')
    return 'control';
  // Charts with a keyboard read-out are focusable SVGs (or groups) that use the arrows.
  if ((tag === 'svg' || el.closest('svg')) && el.hasAttribute('tabindex')) return 'control';
  return 'page';
}

export function presentKeyAction(
  key: string,
  focus: FocusKind,
  mods: { ctrl?: boolean; alt?: boolean; meta?: boolean } = {},
): PresentAction | null {
  if (mods.ctrl || mods.alt || mods.meta || focus === 'typing') return null;
  if (key === 'PageDown') return 'next';
  if (key === 'PageUp') return 'prev';
  if (key === 'b' || key === 'B' || key === '.') return 'black';
  if (key === 'w' || key === 'W' || key === ',') return 'white';
  if (focus !== 'page') return null;
  switch (key) {
    case 'ArrowRight':
      return 'next';
    case 'ArrowLeft':
      return 'prev';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'Escape':
      return 'exit';
    default:
      return null;
  }
}

/**
 * The screen to go to, from the screens' tops relative to the viewport's top (px, in page order): the next
 * screen starts below the current top, the previous one above it. `slack` absorbs rounding after a scroll.
 */
export function targetScreen(tops: readonly number[], action: PresentAction, slack = 8): number | null {
  if (!tops.length) return null;
  switch (action) {
    case 'first':
      return 0;
    case 'last':
      return tops.length - 1;
    case 'next': {
      const i = tops.findIndex((t) => t > slack);
      return i < 0 ? null : i;
    }
    case 'prev': {
      for (let i = tops.length - 1; i >= 0; i--) if (tops[i] < -slack) return i;
      return null;
    }
    default:
      return null;
  }
}

/** The screen being shown: the last one whose top is at or above the viewport's top (or the first). */
export function currentScreen(tops: readonly number[], slack = 8): number {
  let cur = 0;
  for (let i = 0; i < tops.length; i++) if (tops[i] <= slack) cur = i;
  return cur;
}

/** A screen's box, its top and bottom edges relative to the viewport's top (px). */
export interface ScreenBox {
  top: number;
  bottom: number;
}

/** Where a key takes the page: the scroll position (px from the document's top) and the screen it then shows. */
export interface PresentScroll {
  top: number;
  screen: number;
}

/** What stays on screen from one window of a tall screen to the next, so the eye finds its place (px). */
export function pageOverlap(viewportHeight: number): number {
  return Math.max(48, Math.round(viewportHeight * 0.1));
}

/**
 * Where a move takes the page, from the screens' boxes (relative to the viewport, in page order), the viewport's
 * height and the page's scroll position. A screen taller than the window is shown a window at a time: "next" first
 * scrolls within the current screen, by a window less `pageOverlap`, never past its end (its bottom at the window's
 * bottom), and only then goes to the next screen's top; "prev" scrolls back within it, never above its top, and
 * then goes to the previous screen's last window (its end, where "next" left it; a screen that fits: its top), so
 * next and prev undo each other. "first" and "last" go to a screen's top. `slack` absorbs rounding after a scroll.
 */
export function presentScrollTarget(
  boxes: readonly ScreenBox[],
  action: PresentAction,
  viewportHeight: number,
  scrollY: number,
  slack = 8,
): PresentScroll | null {
  if (!boxes.length) return null;
  const tops = boxes.map((b) => b.top);
  const at = (screen: number, offset: number): PresentScroll => ({ top: scrollY + offset, screen });
  const step = Math.max(1, viewportHeight - pageOverlap(viewportHeight));
  const cur = currentScreen(tops, slack);
  const box = boxes[cur];
  switch (action) {
    case 'first':
    case 'last': {
      const i = targetScreen(tops, action, slack)!;
      return at(i, boxes[i].top);
    }
    case 'next': {
      // The window's top is inside the current screen, and more of it lies below the window.
      if (box.top <= slack && box.bottom > viewportHeight + slack)
        return at(cur, Math.min(step, box.bottom - viewportHeight));
      const i = targetScreen(tops, 'next', slack);
      return i === null ? null : at(i, boxes[i].top);
    }
    case 'prev': {
      // The current screen starts above the window, and the window's top is still inside it.
      if (box.top < -slack && box.bottom > slack) return at(cur, Math.max(box.top, -step));
      const i = targetScreen(tops, 'prev', slack);
      if (i === null) return null;
      const b = boxes[i];
      return at(i, b.bottom - b.top > viewportHeight + slack ? b.bottom - viewportHeight : b.top);
    }
    default:
      return null;
  }
}
