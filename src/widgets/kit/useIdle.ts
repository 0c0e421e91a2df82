import { useEffect, useState } from 'react';

/**
 * True once the pointer and keyboard have rested `ms`; any move, touch or key wakes it. While not `active` (nothing
 * on screen would fold away) it listens to nothing and is false.
 */
export function useIdle(ms: number, active = true): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!active) return;
    let timer = window.setTimeout(() => setIdle(true), ms);
    const wake = () => {
      setIdle(false);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setIdle(true), ms);
    };
    const events = ['pointermove', 'pointerdown', 'keydown', 'touchstart'] as const;
    // Capture phase: the presentation keys stop their events' propagation, and a key that moves a screen must
    // still wake the bar.
    for (const e of events) window.addEventListener(e, wake, { capture: true, passive: true });
    return () => {
      window.clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, wake, { capture: true });
      // Awake when it next becomes active (a tour started again starts with its controls shown).
      setIdle(false);
    };
  }, [ms, active]);
  return active && idle;
}
