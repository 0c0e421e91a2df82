/**
 * Stamps an animated picture with data-frame="<n>", the number of times it has been drawn (committed), so the
 * animation bench (bench/browser/frameRate.ts) and browser tests count pictures actually drawn, not timer ticks.
 * Written in a layout effect, outside React's props, so stamping a frame never causes another render.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';

export function useFrameStamp<E extends Element>(
  marks?: number,
  /** What the picture shows; when given, only a commit that changes it counts (a re-render of the same picture does not). */
  shown?: string,
): RefObject<E | null> {
  const ref = useRef<E>(null);
  const frames = useRef(0);
  const last = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (shown !== undefined && shown === last.current && el?.hasAttribute('data-frame')) return;
    last.current = shown;
    frames.current++;
    el?.setAttribute('data-frame', String(frames.current));
    if (marks !== undefined) el?.setAttribute('data-marks', String(marks));
  });
  return ref;
}
