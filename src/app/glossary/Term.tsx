/**
 * A glossary term at its first use in a lesson (placed by rehypeGlossary.ts): the word, underlined with dots,
 * opens its definition on hover, or on a tap, Enter or Space (a disclosure button, so touch and keyboard get it
 * too); Escape or a tap elsewhere closes it. The definition is rendered only while open, right
 * after the word, so Tab goes from the word into its link; it is shown as a popover (the browser's top layer),
 * because the lesson's blocks clip what overflows them (tables scroll; blocks out of view skip painting:
 * content-visibility). Where the Popover API is missing it is rendered into the page's body instead.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Link } from '../Link';
import { glossaryPath, TERM_BY_ID } from './terms';
import './glossary.css';

/** Room kept between the definition and the window's edges, px. */
const EDGE = 8;

/** Whether this browser shows popovers in the top layer (every current one; not a test's DOM). */
const POPOVERS = typeof HTMLElement !== 'undefined' && 'showPopover' in HTMLElement.prototype;

export function Term({ id, children }: { id: string; children: ReactNode }) {
  const term = TERM_BY_ID.get(id);
  const [open, setOpen] = useState(false);
  const [pinned, setPinned] = useState(false); // opened by a click: stays when the pointer leaves
  const tipId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const tip = useRef<HTMLSpanElement>(null);

  const close = () => {
    setOpen(false);
    setPinned(false);
  };

  // Under the word, in page coordinates (an absolute popover's containing block is the initial one, as the body's
  // is), kept inside the window's width; placed again in any frame where the word moved (a widget above it drew a
  // taller result, a block above it was laid out), so it never points at a line the word has left.
  useLayoutEffect(() => {
    const b = button.current;
    const t = tip.current;
    if (!open || !b || !t) return;
    if (POPOVERS && !t.matches(':popover-open')) t.showPopover();
    let left = NaN;
    let top = NaN;
    const place = () => {
      const r = b.getBoundingClientRect();
      const width = t.getBoundingClientRect().width;
      const right = document.documentElement.clientWidth - EDGE - width;
      const x = Math.max(EDGE, Math.min(r.left, right)) + window.scrollX;
      const y = r.bottom + window.scrollY;
      if (x === left && y === top) return;
      left = x;
      top = y;
      t.style.left = `${x}px`;
      t.style.top = `${y}px`;
    };
    place();
    let frame = requestAnimationFrame(function follow() {
      place();
      frame = requestAnimationFrame(follow);
    });
    return () => cancelAnimationFrame(frame);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // The focus comes back to the word only from the word or its definition (not from a field being typed in
      // while the pointer rests on a term).
      const focus = document.activeElement;
      const inside = !!focus && (button.current?.contains(focus) || tip.current?.contains(focus));
      close();
      if (inside) button.current?.focus();
    };
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!button.current?.contains(target) && !tip.current?.contains(target)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
    };
  }, [open]);

  if (!term) return <>{children}</>; // an id the list no longer has: the word stays, unmarked
  const definition = (
    <span
      ref={tip}
      id={tipId}
      className="term-tip"
      role="note"
      data-term-tip={id}
      popover={POPOVERS ? 'manual' : undefined}
    >
      <strong>{term.name}</strong>
      {term.expansion ? ` (${term.expansion})` : ''}: {term.definition}{' '}
      <Link href={glossaryPath(id)}>All terms</Link>
    </span>
  );
  return (
    // The definition is this span's child (in the DOM, or in React's tree through a portal), so moving the pointer
    // onto it is no leave.
    <span
      className="term"
      data-term={id}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => {
        if (!pinned) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="term-word"
        aria-expanded={open}
        aria-controls={open ? tipId : undefined}
        aria-describedby={open ? tipId : undefined}
        onClick={() => {
          const next = !(open && pinned);
          setOpen(next);
          setPinned(next);
        }}
      >
        {children}
      </button>
      {open ? (POPOVERS ? definition : createPortal(definition, document.body)) : null}
    </span>
  );
}
