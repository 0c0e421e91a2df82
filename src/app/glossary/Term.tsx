/**
 * A glossary term at its first use in a lesson (placed by rehypeGlossary.ts): the word, underlined with dots,
 * opens its definition on hover, or on a tap, Enter or Space (a disclosure button, so touch and keyboard get it
 * too); Escape, a tap elsewhere or a new window width closes it. The definition is rendered only while open, so the
 * sentence's text is the sentence's; and into the page's body, under the word, because the lesson's blocks clip
 * what overflows them (tables scroll; blocks out of view skip painting: content-visibility).
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Link } from '../Link';
import { glossaryPath, TERM_BY_ID } from './terms';
import './glossary.css';

/** Room kept between the definition and the window's edges, px. */
const EDGE = 8;

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

  // Under the word, in page coordinates, kept inside the window's width.
  useLayoutEffect(() => {
    const b = button.current;
    const t = tip.current;
    if (!open || !b || !t) return;
    const r = b.getBoundingClientRect();
    const width = t.getBoundingClientRect().width;
    const right = document.documentElement.clientWidth - EDGE - width;
    t.style.left = `${Math.max(EDGE, Math.min(r.left, right)) + window.scrollX}px`;
    t.style.top = `${r.bottom + window.scrollY}px`;
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
    // A new width moves the word; a phone's address bar showing or hiding changes only the height.
    const width = window.innerWidth;
    const onResize = () => {
      if (window.innerWidth !== width) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    window.addEventListener('resize', onResize);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
      window.removeEventListener('resize', onResize);
    };
  }, [open]);

  if (!term) return <>{children}</>; // an id the list no longer has: the word stays, unmarked
  return (
    // The definition is this span's child in React's tree (a portal), so moving the pointer onto it is no leave.
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
      {open
        ? createPortal(
            <span ref={tip} id={tipId} className="term-tip" role="note" data-term-tip={id}>
              <strong>{term.name}</strong>
              {term.expansion ? ` (${term.expansion})` : ''}: {term.definition}{' '}
              <Link href={glossaryPath(id)}>All terms</Link>
            </span>,
            document.body,
          )
        : null}
    </span>
  );
}
