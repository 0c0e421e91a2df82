/**
 * Lets the lesson's tour (and "Show me") drive an animated widget's playhead. It must render inside the widget's
 * frame, whose id it registers the transport under; it draws nothing.
 *
 * A step sets the widget's parameters and its time together, but the run those parameters ask for arrives later:
 * until it does, the playhead is clamped to the old run's length (a 24-turn trajectory after an 11-turn one). A
 * time beyond the current length is therefore kept and applied once the run is long enough, for a while.
 */
import { useEffect, useRef } from 'react';
import { useStageTransport, type StageTransport } from './stage';

/** How long a time beyond the current run waits for a longer one, ms (as long as a tour step retries). */
const PENDING_MS = 20_000;

export function TourTransport({ transport }: { transport: StageTransport & { duration: number } }) {
  const pending = useRef<{ t: number; until: number } | null>(null);
  useStageTransport({
    seek: (t) => {
      pending.current = t > transport.duration ? { t, until: Date.now() + PENDING_MS } : null;
      transport.seek(t);
    },
    play: () => transport.play(),
    pause: () => transport.pause(),
  });
  const { duration, seek } = transport;
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    if (Date.now() > p.until) pending.current = null;
    else if (duration >= p.t) {
      pending.current = null;
      seek(p.t);
    }
  }, [duration, seek]);
  return null;
}
