import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Keeps the frame root's data-drawn counter (the browser-test contract in WidgetFrame.tsx), written to the DOM
 * directly, so counting never re-renders. Runs after every commit; bumps when the committed picture is a new
 * drawing (see WidgetFrameProps.drawn).
 */
export function useDrawnCounter(
  rootRef: RefObject<HTMLElement | null>,
  current: boolean,
  settings: unknown,
  drawn: string | number | null | undefined,
) {
  const seen = useRef<{ n: number; drawn: unknown; current: boolean; settings: unknown }>({
    n: 0,
    drawn: null,
    current: false,
    settings,
  });
  useLayoutEffect(() => {
    const s = seen.current;
    // A control that only changes the view redraws the current result at once: that is a new drawing too.
    const bump =
      (drawn !== undefined ? drawn !== null && drawn !== s.drawn : current && !s.current) ||
      (current && s.current && settings !== s.settings);
    s.drawn = drawn ?? null;
    s.current = current;
    s.settings = settings;
    if (bump) {
      s.n++;
      rootRef.current?.setAttribute('data-drawn', String(s.n));
    }
  });
}
