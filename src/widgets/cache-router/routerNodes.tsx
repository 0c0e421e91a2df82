/**
 * Pieces of the animated router's picture outside the replicas: the router with its latest decision and reason,
 * the shared KV pool with its reloads, and the note on where a followed session's KV sits.
 */
import { formatBytesDecimal, formatCount } from '../../lib/format';
import type { RouterPictureRun } from '../../sim/lessons/routing/streamed';
import { POLICY_LABELS } from '../../sim/lessons/routing/constants';
import type { PictureLayout } from './routerLayout';
import { sessionColor, sessionLabel, sessionPath, sessionShapeName } from './sessionStyle';

export function RouterNode({
  r,
  L,
  last,
  decision,
}: {
  r: RouterPictureRun;
  L: PictureLayout;
  last: number;
  decision: string | null;
}) {
  const req = r.requests;
  const head =
    last >= 0
      ? `${sessionLabel(req.session[last])} turn ${req.turn[last] + 1} → R${req.replica[last] + 1}`
      : '';
  // The reason without its policy prefix, wrapped to the box.
  const why = decision ? decision.replace(/^[^:]*:\s*/, '') : '';
  const { x, y, w, h } = L.router;
  if (L.stacked) {
    return (
      <g className="router-node-g">
        <rect x={x} y={y} width={w} height={h} rx={8} className="router-node" />
        <text x={8} y={y + 19} className="router-title">
          {'Router '}
          <tspan className="router-sub">{POLICY_LABELS[r.policy]}</tspan>
        </text>
        <text x={8} y={y + 38} className="router-decision-head">
          {head}
        </text>
        <text x={8} y={y + 56} className="router-decision" data-reason={last}>
          {truncate(why, Math.floor((w - 16) / 6.6))}
        </text>
      </g>
    );
  }
  const lines = wrap(why, 20, 4);
  return (
    <g className="router-node-g">
      <rect x={x} y={y} width={w} height={h} rx={8} className="router-node" />
      <text x={x + w / 2} y={y + 21} textAnchor="middle" className="router-title">
        Router
      </text>
      <text x={x + w / 2} y={y + 40} textAnchor="middle" className="router-sub">
        {POLICY_LABELS[r.policy]}
      </text>
      <text x={x + w / 2} y={y + 64} textAnchor="middle" className="router-decision-head">
        {head}
      </text>
      <text x={x + 10} y={y + 84} className="router-decision" data-reason={last}>
        {lines.map((line, i) => (
          <tspan key={i} x={x + 10} dy={i === 0 ? 0 : 17}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}

export function PoolNode({
  L,
  gb,
  reloads,
  tokens,
}: {
  L: PictureLayout;
  gb: number;
  reloads: number;
  tokens: number;
}) {
  const p = L.pool!;
  return (
    <g className="router-pool" data-pool-reloads={reloads}>
      <rect x={p.x} y={p.y} width={p.w} height={p.h} rx={8} className="router-pool-box" />
      {L.stacked ? (
        <text x={p.x + 8} y={p.y + 27} className="router-title">
          {`Shared pool ${gb} GB `}
          <tspan className="router-sub">{`· ${reloads} ${reloads === 1 ? 'reload' : 'reloads'}, ${formatCount(tokens)} tokens`}</tspan>
        </text>
      ) : (
        <>
          <text x={p.x + p.w / 2} y={p.y + 22} textAnchor="middle" className="router-title">
            Shared KV pool
          </text>
          <text x={p.x + p.w / 2} y={p.y + 41} textAnchor="middle" className="router-sub">
            {`${gb} GB over RDMA`}
          </text>
          <text x={p.x + p.w / 2} y={p.y + 62} textAnchor="middle" className="router-decision-head">
            {`${reloads} ${reloads === 1 ? 'reload' : 'reloads'}`}
          </text>
          <text x={p.x + p.w / 2} y={p.y + 81} textAnchor="middle" className="router-sub">
            {`${formatCount(tokens)} tokens`}
          </text>
        </>
      )}
    </g>
  );
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Greedy word wrap to lines of at most n characters; past maxLines the last kept line ends in an ellipsis. */
export function wrap(s: string, n: number, maxLines: number): string[] {
  const words = s.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (!cur) cur = w;
    else if (cur.length + 1 + w.length <= n) cur += ` ${w}`;
    else {
      lines.push(cur);
      cur = w;
    }
  }
  if (cur) lines.push(cur);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    const tail = kept[maxLines - 1];
    kept[maxLines - 1] = tail.length < n ? `${tail}…` : truncate(tail, n);
    return kept;
  }
  return lines;
}

/** Where the followed session's KV is at this frame. */
export function FollowNote({ r, f, follow }: { r: RouterPictureRun; f: number; follow: number }) {
  const R = r.replicas;
  const where: { replica: number; blocks: number }[] = [];
  if (f >= 0) {
    for (let ri = 0; ri < R; ri++) {
      const k = f * R + ri;
      for (let j = r.frames.kvOffsets[k]; j < r.frames.kvOffsets[k + 1]; j++) {
        if (r.frames.kvSession[j] === follow) where.push({ replica: ri, blocks: r.frames.kvBlocks[j] });
      }
    }
  }
  const total = where.reduce((a, w) => a + w.blocks, 0);
  const largest = where.reduce((a, w) => Math.max(a, w.blocks), 0);
  return (
    <p className="router-follow-note" data-follow-copies={where.length}>
      <svg width={14} height={14} viewBox="-7 -7 14 14" aria-hidden="true">
        <path d={sessionPath(follow, 90)} style={{ fill: sessionColor(follow) }} />
      </svg>{' '}
      <strong>{sessionLabel(follow)}</strong> ({sessionShapeName(follow)}):{' '}
      {where.length === 0
        ? 'nothing of its own in any replica’s HBM now.'
        : `its own KV sits on ${where.length} of ${R} replicas (${where.map((w) => `R${w.replica + 1}`).join(', ')}); ${
            where.length > 1
              ? `${formatBytesDecimal((total - largest) * r.bytesPerBlock)} of it held in duplicate.`
              : 'no duplicate.'
          }`}
    </p>
  );
}
