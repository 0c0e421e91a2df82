/**
 * Playback clock for animated widgets. The picture is a function of (result, t), so scrubbing and stepping
 * back cost nothing: this hook only owns t. Frames advance with requestAnimationFrame while playing.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

/** What a key does to an animated picture that has the focus (the keyboard help lists the same keys). */
export type TransportKeyAction = 'toggle' | 'back' | 'forward' | 'start' | 'end';

export function transportKeyAction(key: string): TransportKeyAction | null {
  switch (key) {
    case ' ':
      return 'toggle';
    case 'ArrowRight':
      return 'forward';
    case 'ArrowLeft':
      return 'back';
    case 'Home':
      return 'start';
    case 'End':
      return 'end';
    default:
      return null;
  }
}

export interface TransportOptions {
  /** Length of the timeline, in the widget's time unit (e.g. simulated seconds). */
  duration: number;
  /** Timeline units advanced per wall-clock second at 1×. */
  rate: number;
  /** Size of one step (←/→ and the step buttons). */
  step: number;
  /**
   * Start playing once a result arrives and the picture is on screen, so the default shows its effect untouched;
   * under reduced motion it starts at the end instead (the finished picture, not an empty one).
   */
  autoplay?: boolean;
  reducedMotion?: boolean;
  /**
   * How far the timeline is computed yet (exclusive), for a result still streaming in: playing holds just
   * before it (still playing) and goes on as it grows. Absent: all of it.
   */
  available?: number;
}

export interface Transport {
  t: number;
  duration: number;
  playing: boolean;
  speed: number;
  play(): void;
  pause(): void;
  toggle(): void;
  stepBy(direction: 1 | -1): void;
  seek(t: number): void;
  setSpeed(speed: number): void;
  /**
   * Whether the picture is on screen (the transport bar reports it): playing holds its frames while it is not,
   * so an animation scrolled out of view costs the page nothing and resumes where it was.
   */
  setOnScreen(onScreen: boolean): void;
  /** Space, ←/→, Home/End while the widget has focus; ignores keys aimed at form fields. */
  handleKey(e: KeyboardEvent): void;
}

function isFormField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return (
    tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON' || target.isContentEditable
  );
}

export function useTransport({
  duration,
  rate,
  step,
  autoplay = false,
  reducedMotion = false,
  available,
}: TransportOptions): Transport {
  // At the end, whatever the duration turns out to be (t is clamped to it): reduced motion's autoplay.
  const [t, setT] = useState(autoplay && reducedMotion ? Infinity : 0);
  const [playing, setPlaying] = useState(autoplay && !reducedMotion);
  const [speed, setSpeedState] = useState(1);
  const [onScreen, setOnScreen] = useState(true);
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  }, [t]);
  const safeDuration = Number.isFinite(duration) && duration > 0 ? duration : 0;
  const availableRef = useRef(available);
  useEffect(() => {
    availableRef.current = available;
  }, [available]);

  useEffect(() => {
    if (!playing || !onScreen || safeDuration === 0) return;
    let raf = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const dt = Math.min(0.1, (now - last) / 1000);
      last = now;
      let next = tRef.current + dt * rate * speed;
      const until = availableRef.current;
      // Waiting for the rest of a streaming result: hold a millisecond short of what is computed.
      if (until !== undefined && next >= until - 1e-3) next = Math.max(tRef.current, until - 1e-3);
      if (next >= safeDuration) {
        setT(safeDuration);
        setPlaying(false);
        return;
      }
      if (next !== tRef.current) setT(next);
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, onScreen, rate, speed, safeDuration]);

  const clamp = useCallback((x: number) => Math.min(safeDuration, Math.max(0, x)), [safeDuration]);
  const seek = useCallback((x: number) => setT(clamp(x)), [clamp]);
  const play = useCallback(() => {
    if (tRef.current >= safeDuration) setT(0);
    setPlaying(true);
  }, [safeDuration]);
  const pause = useCallback(() => setPlaying(false), []);
  const toggle = useCallback(() => (playing ? pause() : play()), [playing, pause, play]);
  const stepBy = useCallback(
    (direction: 1 | -1) => {
      setPlaying(false);
      setT((x) => clamp(clamp(x) + direction * step)); // clamped first: reduced motion's autoplay starts at ∞
    },
    [clamp, step],
  );
  const setSpeed = useCallback((s: number) => setSpeedState(Math.min(16, Math.max(0.25, s))), []);
  const handleKey = useCallback(
    (e: KeyboardEvent) => {
      // A chart's own keyboard read-out (or a form field) already used this key.
      if (e.defaultPrevented || isFormField(e.target)) return;
      const action = transportKeyAction(e.key);
      if (action === null) return;
      if (action === 'toggle') toggle();
      else if (action === 'forward' || action === 'back') stepBy(action === 'forward' ? 1 : -1);
      else {
        setPlaying(false);
        seek(action === 'start' ? 0 : safeDuration);
      }
      e.preventDefault();
    },
    [toggle, stepBy, seek, safeDuration],
  );
  return {
    t: clamp(t),
    duration: safeDuration,
    playing,
    speed,
    play,
    pause,
    toggle,
    stepBy,
    seek,
    setSpeed,
    setOnScreen,
    handleKey,
  };
}
