/**
 * Whether an element is the document's fullscreen element, and a toggle. The state follows the document's
 * `fullscreenchange`, not the toggle, so leaving with Escape or the browser's own control is seen too.
 */
import { useEffect, useState, type RefObject } from 'react';

export function useFullscreen(
  ref: RefObject<HTMLElement | null>,
  /** Called when the browser refuses (an iframe without permission, a browser without the API). */
  onUnavailable: () => void,
): { fullscreen: boolean; toggle: () => Promise<void> } {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === ref.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [ref]);
  const toggle = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await ref.current?.requestFullscreen();
    } catch {
      onUnavailable();
    }
  };
  return { fullscreen, toggle };
}
