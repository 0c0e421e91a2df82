/**
 * The key to the animated router's marks (CacheRouter.tsx), beside its "Follow a session" pick: a request waiting,
 * prefilling or decoding, the shared head's hatch, and the parts of an arriving prompt (cached, from the pool when
 * the fleet has one, to prefill). Drawn as the picture draws them, with session 0's colour and shape.
 */
import { sessionColor, sessionPath } from './sessionStyle';

export function MarkLegend({ pool }: { pool: boolean }) {
  return (
    <span className="router-legend" aria-hidden="true">
      <span>
        <Swatch s={0} kind="waiting" /> waiting
      </span>
      <span>
        <Swatch s={0} kind="prefill" /> prefilling
      </span>
      <span>
        <Swatch s={0} kind="decode" /> decoding
      </span>
      <span>
        <svg width={22} height={12} className="router-legend-hatch">
          <rect width={22} height={12} fill="url(#router-shared-hatch)" />
        </svg>{' '}
        shared head
      </span>
      <span>
        <SplitSwatch kind="hit" /> cached (hit)
      </span>
      {pool ? (
        <span>
          <SplitSwatch kind="pool" /> from the pool
        </span>
      ) : null}
      <span>
        <SplitSwatch kind="miss" /> to prefill (miss)
      </span>
    </span>
  );
}

function SplitSwatch({ kind }: { kind: 'hit' | 'pool' | 'miss' }) {
  return (
    <svg width={22} height={12}>
      <rect width={22} height={12} className={`router-split is-${kind}`} />
    </svg>
  );
}

function Swatch({ s, kind }: { s: number; kind: 'waiting' | 'prefill' | 'decode' }) {
  return (
    <svg width={20} height={20} viewBox="-10 -10 20 20" className={`router-mark is-${kind}`}>
      <path d={sessionPath(s, 90)} style={{ fill: sessionColor(s), stroke: sessionColor(s) }} />
      {kind === 'prefill' ? (
        <circle r={8} className="router-mark-ring" style={{ stroke: sessionColor(s) }} />
      ) : null}
    </svg>
  );
}
