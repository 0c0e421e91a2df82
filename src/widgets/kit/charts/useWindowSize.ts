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
