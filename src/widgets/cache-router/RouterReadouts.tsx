/**
 * The animated router's read-outs (CacheRouter.tsx), live at the playhead: hit rate, TTFT p50/p90 and load
 * imbalance over the requests so far, what HBM holds now, the router's latest decision, reloads from the pool and
 * the session KV held in duplicate. Each formula sets the figure against the whole run's and the compared
 * policy's, once they are computed.
 */
import { useMemo, type ReactNode } from 'react';
import { Readout } from '../kit/WidgetFrame';
import {
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import type { RouterPictureRun } from '../../sim/lessons/routing/streamed';
import { frameAt, summarizeRows, type PolicySummary } from '../../sim/lessons/routing/summary';
import { hbmBlocksAt, lastArrivalAt } from './playhead';
import { routeText } from './RouterPicture';

export function RouterReadouts({
  r,
  t,
  whole: s,
  compared: c,
  comparedName: cName,
}: {
  /** The run the picture shows. */
  r: RouterPictureRun;
  t: number;
  /** The whole run's summary, once it has ended. */
  whole: PolicySummary | undefined;
  /** The compared policy's summary, once it is computed for these settings, and its name. */
  compared: PolicySummary | undefined;
  comparedName: string;
}) {
  const live = useMemo(() => summarizeRows(r.requests, r.replicas, t), [r, t]);
  const f = frameAt(r.frames, t);
  const dupBlocks = f >= 0 ? r.frames.duplicateBlocks[f] : 0;
  const hbmUsed = hbmBlocksAt(r, f);
  const hbmFill = hbmUsed / (r.hbmBlocks * r.replicas);
  const lastDecision = lastArrivalAt(r.requests.arrival, r.requests.count, t);
  return (
    <>
      <Readout
        emphasis
        label="Prefix hit rate so far"
        value={
          <SoFar id="hit-rate" final={s?.hitRate}>
            {formatPercent(live.hitRate)}
          </SoFar>
        }
        formula={`Σ reused ÷ Σ (reused + prefilled) tokens = ${formatCount(live.reusedTokens)} ÷ ${formatCount(live.servedTokens)}; whole run ${formatPercent(s?.hitRate)}, ${cName} ${formatPercent(c?.hitRate)}`}
      />
      <Readout
        label="TTFT p50 so far"
        value={
          <SoFar id="ttft-p50" final={s?.ttftP50}>
            {formatDuration(live.ttftP50)}
          </SoFar>
        }
        formula={`median over ${live.requests} first tokens; whole run ${formatDuration(s?.ttftP50)}, ${cName} ${formatDuration(c?.ttftP50)}`}
      />
      <Readout
        emphasis
        label="TTFT p90 so far"
        value={
          <SoFar id="ttft-p90" final={s?.ttftP90}>
            {formatDuration(live.ttftP90)}
          </SoFar>
        }
        formula={`whole run ${formatDuration(s?.ttftP90)}, ${cName} ${formatDuration(c?.ttftP90)}`}
      />
      <Readout
        label="Load imbalance so far"
        value={
          <SoFar id="imbalance" final={s?.imbalance}>
            {formatRatio(live.imbalance)}
          </SoFar>
        }
        formula={`max ÷ mean GPU-seconds per replica (1× = even); whole run ${formatRatio(s?.imbalance)}, ${cName} ${formatRatio(c?.imbalance)}`}
      />
      <Readout
        emphasis
        label="HBM in use now"
        value={<span data-readout="hbm-fill">{formatPercent(hbmFill, 2)}</span>}
        formula={`${formatCount(hbmUsed)} of ${formatCount(r.hbmBlocks * r.replicas)} KV blocks over ${r.replicas} replicas; when full, every new block evicts a cached one`}
      />
      <Readout
        label="Latest decision"
        value={
          <span data-readout="decision" className="router-readout-decision">
            {lastDecision >= 0 ? routeText(r, lastDecision) : '—'}
          </span>
        }
        formula="the policy's reason, as the fleet router reported it for this request"
      />
      {r.poolGB > 0 ? (
        <Readout
          label="Reloaded from the pool so far"
          value={
            <span data-readout="pool-hits">
              {formatNumber(live.poolHits)} {live.poolHits === 1 ? 'turn' : 'turns'}
            </span>
          }
          formula={`${formatTokens(live.poolReusedTokens)} not recomputed; whole run ${formatNumber(s?.poolHits)} turns, ${formatTokens(s?.poolReusedTokens)}`}
        />
      ) : null}
      <Readout
        label="Session KV held in duplicate now"
        value={<span data-readout="duplicate-kv">{formatBytesDecimal(dupBlocks * r.bytesPerBlock)}</span>}
        formula={`${formatNumber(dupBlocks)} blocks × ${formatBytesDecimal(r.bytesPerBlock)}: copies beyond the first of each session's blocks, over all replicas`}
      />
    </>
  );
}

/** A figure over the run so far, carrying the whole run's value once the run has ended. */
function SoFar({ id, final, children }: { id: string; final: number | undefined; children: ReactNode }) {
  return (
    <span data-readout={id} data-final={final}>
      {children}
    </span>
  );
}
