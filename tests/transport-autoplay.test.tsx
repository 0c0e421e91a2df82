// @vitest-environment happy-dom
/**
 * useTransport's autoplay (src/widgets/kit/controls/useTransport.ts): an animated widget's default shows its effect
 * untouched. It plays from the start; under reduced motion it does not move, and shows the end instead of an empty
 * first frame; Play from there starts over.
 */
import { describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import {
  useTransport,
  type Transport,
  type TransportOptions,
} from '../src/widgets/kit/controls/useTransport';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function mount(opts: TransportOptions): { current: () => Transport; unmount: () => void } {
  let latest: Transport | null = null;
  function Probe(props: TransportOptions) {
    latest = useTransport(props);
    return null;
  }
  const root = createRoot(document.createElement('div'));
  act(() => root.render(<Probe {...opts} />));
  return { current: () => latest!, unmount: () => act(() => root.unmount()) };
}

describe('useTransport autoplay', () => {
  it('plays from the start', () => {
    const t = mount({ duration: 10, rate: 1, step: 1, autoplay: true });
    expect(t.current().playing).toBe(true);
    expect(t.current().t).toBe(0);
    t.unmount();
  });

  it('under reduced motion: still, at the end; Play starts over, a step back leaves the end', () => {
    const t = mount({ duration: 10, rate: 1, step: 1, autoplay: true, reducedMotion: true });
    expect(t.current().playing).toBe(false);
    expect(t.current().t).toBe(10);
    act(() => t.current().stepBy(-1));
    expect(t.current().t).toBe(9);
    act(() => t.current().seek(10));
    act(() => t.current().play());
    expect(t.current().t).toBe(0);
    expect(t.current().playing).toBe(true);
    t.unmount();
  });

  it('without autoplay: still, at the start, even under reduced motion', () => {
    for (const reducedMotion of [false, true]) {
      const t = mount({ duration: 10, rate: 1, step: 1, reducedMotion });
      expect(t.current().playing).toBe(false);
      expect(t.current().t).toBe(0);
      t.unmount();
    }
  });
});
