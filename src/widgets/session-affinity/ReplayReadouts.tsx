/**
 * The trajectory replay's read-outs (AffinityReplay.tsx): the whole trajectory's hit rate and re-prefilled
 * tokens against the other policy's, a cold turn's extra TTFT as tokens × per-token prefill time, the formula of
 * that time, and the transport's turn.
 */
import { useMemo } from 'react';
import { Readout } from '../kit/WidgetFrame';
import {
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatTokens,
} from '../../lib/format';
import type { AffinityReplayResponse } from '../../worker/affinityMethods';
import { focusTurn, sumsThrough, type ReplayPolicies } from './replayData';
import { KIND_TEXT } from './turnMarks';

export function ReplayReadouts({
  r,
  policies: { shown, other, shownName, otherName },
  cur,
}: {
  r: AffinityReplayResponse;
  policies: ReplayPolicies;
  /** The transport's turn (a row of `shown`). */
  cur: number;
}) {
  const row = shown.rows[cur];
  const focus = focusTurn(shown.rows, row);
  const upTo = useMemo(() => sumsThrough(shown.rows, cur), [shown, cur]);
  const f = r.formula;
  return (
    <>
      <Readout
        label="Hit rate over the trajectory"
        value={
          <Versus
            id="hit-rate"
            value={formatPercent(shown.totals.hitRate)}
            otherName={otherName}
            other={formatPercent(other.totals.hitRate)}
          />
        }
        formula={`Σ reused / Σ prompt = ${formatCount(shown.totals.reusedTokens)} / ${formatCount(shown.totals.promptTokens)}; turns 0–${cur}: ${formatPercent(upTo.prompt > 0 ? upTo.reused / upTo.prompt : 0)}`}
      />
      <Readout
        label="Tokens re-prefilled"
        value={
          <Versus
            id="re-prefilled"
            value={formatTokens(shown.totals.rePrefilledTokens)}
            otherName={otherName}
            other={formatTokens(other.totals.rePrefilledTokens)}
          />
        }
        formula={`Σ (computed before − found) = ${formatDuration(shown.totals.extraS)} of extra TTFT in all; turns 0–${cur}: ${formatTokens(upTo.re)}, ${formatDuration(upTo.extra)}`}
      />
      <Readout
        emphasis
        label={
          focus
            ? `Turn ${focus.turn} lands ${focus.kind === 'cold' ? 'cold' : 'on an older prefix'}: extra TTFT`
            : 'Extra TTFT of a cold turn'
        }
        value={
          <span data-readout="cold-extra">
            {focus ? `+${formatDuration(focus.extraS)}` : 'none: no turn lands cold'}
          </span>
        }
        formula={
          focus ? (
            <>
              {formatCount(focus.rePrefilledTokens)} tokens × t<sub>tok</sub>({formatCount(focus.midContext)})
              = {formatNumber(focus.rePrefilledTokens)} × {formatDuration(focus.perTokenS)}; simulated{' '}
              {formatDuration(focus.ttftS)} against {formatDuration(r.affinity.rows[focus.turn]?.ttftS)} with
              affinity
            </>
          ) : (
            `every turn finds what the session computed before (${shownName})`
          )
        }
      />
      <Readout
        label="Prefill time per token, c tokens into the context"
        value={`${formatDuration(f?.perTokenAtZeroS)} + ${formatDuration(f ? f.attentionFlopsPerPair / f.attentionFlops : NaN)} × c`}
        formula={
          f ? (
            <>
              t<sub>tok</sub>(c) = 2·P<sub>body</sub> / (G·F·e<sub>GEMM</sub>) + a·(c+1) / (G·F·e
              <sub>attn</sub>) + β = {formatFlops(f.bodyFlopsPerToken)} / ({r.gpus} ×{' '}
              {formatFlops(f.peakFlopsPerGpu, true)} × {f.gemmEfficiency}) +{' '}
              {formatFlops(f.attentionFlopsPerPair)} × (c+1) / ({r.gpus} ×{' '}
              {formatFlops(f.peakFlopsPerGpu, true)} × {f.attentionEfficiency}) +{' '}
              {formatDuration(f.allReducePerTokenS)} (β: two all-reduces per layer of one token&apos;s hidden
              state, 2(G−1)/G × hidden × 2 B over NVLink); each extra prefill chunk also pays{' '}
              {formatDuration(f.iterationFixedS)} of all-reduce latency and overhead
            </>
          ) : null
        }
      />
      <Readout
        label={`Turn ${cur} TTFT (at the playhead)`}
        value={<span data-readout="turn-ttft">{formatDuration(row.ttftS)}</span>}
        formula={`replica ${row.replica}, ${KIND_TEXT[row.kind]}; ${formatTokens(row.promptTokens)} prompt, ${formatTokens(row.prefilledTokens)} prefilled (${otherName}: TTFT ${formatDuration(other.rows[cur]?.ttftS)})`}
      />
      <Readout
        label={`Turn ${cur}: reused / recomputed`}
        value={
          <span>
            <span data-readout="turn-hit-rate">{formatPercent(row.hitRate)}</span> hit:{' '}
            {formatTokens(row.reusedTokens)} / {formatTokens(row.promptTokens - row.reusedTokens)}
          </span>
        }
        formula={`recomputed = ${formatTokens(row.rePrefilledTokens)} computed before, elsewhere + ${formatTokens(row.promptTokens - row.reusedTokens - row.rePrefilledTokens)} new to the session${row.droppedTokens > 0 ? `; the prompt rewrote ${formatTokens(row.droppedTokens)} of what turn ${cur - 1} left computed, so no replica holds them` : ''}`}
      />
    </>
  );
}

/** The shown policy's figure, then the compared policy's. */
function Versus({
  id,
  value,
  otherName,
  other,
}: {
  id: string;
  value: string;
  otherName: string;
  other: string;
}) {
  return (
    <span>
      <span data-readout={id}>{value}</span>
      <span className="readout-sub">
        {otherName}: {other}
      </span>
    </span>
  );
}
