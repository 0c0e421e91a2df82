/** Play/pause, step, step back, scrub and speed for an animated widget. */
import { useEffect, useId, useRef } from 'react';
import { SPEEDS, type Transport } from './useTransport';
import { useStageTransport } from '../stage';

/** Icons drawn as SVG: media-control glyphs are missing from many system fonts. */
function Icon({ kind }: { kind: 'start' | 'back' | 'play' | 'pause' | 'forward' }) {
  const paths: Record<typeof kind, string> = {
    start: 'M3 2h2v12H3zM14 2v12L6 8z',
    back: 'M12 2v12L4 8z',
    play: 'M4 2v12l10-6z',
    pause: 'M3 2h4v12H3zM9 2h4v12H9z',
    forward: 'M4 2v12l8-6zM12 2h2v12h-2z',
  };
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={paths[kind]} fill="currentColor" />
    </svg>
  );
}

export function TransportBar({ transport, format }: { transport: Transport; format: (t: number) => string }) {
  const scrubId = useId();
  useStageTransport(transport);
  const barRef = useRef<HTMLDivElement>(null);
  const { setOnScreen } = transport;
  // The widget this bar plays, watched while it is on the page: out of view, playing holds its frames.
  useEffect(() => {
    const widget = barRef.current?.closest('[data-widget]') ?? barRef.current;
    if (!widget || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) setOnScreen(last.isIntersecting);
    });
    io.observe(widget);
    return () => {
      io.disconnect();
      setOnScreen(true);
    };
  }, [setOnScreen]);
  const { t, duration, playing, speed } = transport;
  return (
    <div ref={barRef} className="transport" role="group" aria-label="Playback">
      <button
        type="button"
        onClick={() => transport.seek(0)}
        aria-label="Go to start"
        title="Go to start (Home)"
      >
        <Icon kind="start" />
      </button>
      <button type="button" onClick={() => transport.stepBy(-1)} aria-label="Step back" title="Step back (←)">
        <Icon kind="back" />
      </button>
      <button
        type="button"
        className="transport-play"
        onClick={transport.toggle}
        aria-label={playing ? 'Pause' : 'Play'}
        title="Play/pause (Space)"
      >
        <Icon kind={playing ? 'pause' : 'play'} />
      </button>
      <button
        type="button"
        onClick={() => transport.stepBy(1)}
        aria-label="Step forward"
        title="Step forward (→)"
      >
        <Icon kind="forward" />
      </button>
      <label htmlFor={scrubId} className="visually-hidden">
        Time
      </label>
      <input
        id={scrubId}
        className="transport-scrub"
        type="range"
        min={0}
        max={duration || 1}
        step={duration / 1000 || 0.001}
        value={t}
        aria-valuetext={`${format(t)} of ${format(duration)}`}
        onChange={(e) => {
          transport.pause();
          transport.seek(Number(e.currentTarget.value));
        }}
      />
      <span className="transport-time" aria-live="off">
        {format(t)} / {format(duration)}
      </span>
      <label className="transport-speed">
        <span className="visually-hidden">Speed</span>
        <select
          value={speed}
          onChange={(e) => transport.setSpeed(Number(e.currentTarget.value))}
          aria-label="Playback speed"
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
