import { useEffect, useState } from 'react';

export interface WindowSize {
  width: number;
  height: number;
}

function read(): WindowSize {
  return typeof window === 'undefined'
    ? { width: 0, height: 0 }
    : { width: window.innerWidth, height: window.innerHeight };
}

/** The window's inner size, followed on resize ({0, 0} outside a browser). */
export function useWindowSize(): WindowSize {
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (typeof window === 'undefined') return;
    const on = () =>
      setSize((prev) => {
        const next = read();
        return prev.width === next.width && prev.height === next.height ? prev : next;
      });
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return size;
}

/**
 * The widest window laid out as a phone's: one column, the picture before the controls (app.css
 * `@media (max-width: 700px)`; keep the two equal).
 */
export const PHONE_MAX_WIDTH = 700;

/**
 * The aspect of a widget's first chart (WidgetFrame `more`): wide and low beside the controls, taller on a phone,
 * where it has the whole width of one column.
 */
export function useLeadAspect(phone: number, wide: number): number {
  return useWindowSize().width <= PHONE_MAX_WIDTH ? phone : wide;
}
