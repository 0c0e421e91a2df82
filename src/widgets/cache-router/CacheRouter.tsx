/**
 * Animated router (lesson 07.03): agent sessions' requests travel from a router to R replicas under one of six
 * policies. Each replica shows its queue, its batch and what its HBM holds, by session. The read-outs (hit
 * rate, TTFT p50/p90, load imbalance, KV held in duplicate) are live: computed from the run up to the playhead.
 * One fleet-simulator run in the worker (method routerAnimation) gives frames and a per-request table; the
 * picture and the read-outs are functions of (result, t).
 */
import { useId, useMemo, useState } from 'react';
import { ParamControls } from '../kit/controls/ParamControls';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { usePreferences } from '../../app/services';
import {
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../../lib/format';
import { POLICY_LABELS, type CacheViewKind, type RouterPolicy } from '../../sim/lessons/routing/constants';
import { frameAt, summarizeRows } from '../../sim/lessons/routing/summary';
import { RouterPicture } from './RouterPicture';
import { ANIMATION_ARRIVAL_S, CACHE_ROUTER_ID, cacheRouterSchema } from './schema';
import { sessionColor, sessionLabel, sessionPath } from './sessionStyle';
import './cache-router.css';

/** Simulated seconds per wall-clock second at 1×. */
const PLAY_RATE = 5;

export function CacheRouter() {
  const params = useWidgetParams(CACHE_ROUTER_ID, cacheRouterSchema);
  const v = params.values;
  const policy = v.policy as RouterPolicy;
  const compareWith: RouterPolicy = policy === 'round-robin' ? 'cache-aware' : 'round-robin';
  const args = useMemo(
    () => ({
      policy,
      replicas: v.replicas,
      sessionsPerS: v.sessionsPerS,
      arrivalS: ANIMATION_ARRIVAL_S,
      seed: v.seed,
      loadThreshold: v.loadThreshold,
      cacheView: v.cacheView as CacheViewKind,
      frameIntervalS: 0.5,
      compareWith,
    }),
    [policy, v.replicas, v.sessionsPerS, v.seed, v.loadThreshold, v.cacheView, compareWith],
  );
  const sim = useSimulation('routerAnimation', args);
  const r = sim.result;
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const transport = useTransport({
    duration: r?.endS ?? 0,
    rate: PLAY_RATE,
    step: 1,
    autoplay: true,
    reducedMotion: reduced,
  });
  const t = transport.t;
  const [followChoice, setFollow] = useState<number | null>(0);
  const follow = r && followChoice !== null && followChoice < r.sessions ? followChoice : null;
  const followId = useId();

  const live = useMemo(() => (r ? summarizeRows(r.requests, r.replicas, t) : null), [r, t]);
  const f = r ? frameAt(r.frames, t) : -1;
  const dupBlocks = r && f >= 0 ? r.frames.duplicateBlocks[f] : 0;
  const s = r?.summary;
  const c = r?.comparison?.summary;
  const cName = POLICY_LABELS[compareWith].toLowerCase();

  return (
    <WidgetFrame
      id={CACHE_ROUTER_ID}
      title="Animated router: where each session's turns land"
      status={sim.status}
      error={sim.error}
      onRetry={sim.retry}
      stale={sim.stale}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        setFollow(0);
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={<ParamControls params={params} />}
      transport={
        <TransportBar transport={transport} format={(x) => formatDuration(Math.round(x * 10) / 10)} />
      }
      exportData={() => ({
        rows: r
          ? Array.from({ length: r.requests.count }, (_, i) => ({
              request: i,
              session: sessionLabel(r.requests.session[i]),
              turn: r.requests.turn[i] + 1,
              replica: r.requests.replica[i] + 1,
              reason: r.reason[i] === 255 ? '' : r.reasonNames[r.reason[i]],
              arrivalS: r.requests.arrival[i],
              ttftS: r.requests.firstToken[i] - r.requests.arrival[i],
              promptTokens: r.requests.promptTokens[i],
              reusedTokens: r.requests.reusedTokens[i],
            }))
          : [],
        json: {
          parameters: v,
          summary: r?.summary,
          comparison: r?.comparison,
          config: r
            ? { hbmBlocks: r.hbmBlocks, blockSize: r.blockSize, bytesPerBlock: r.bytesPerBlock }
            : null,
        },
      })}
      readouts={
        r && live && s ? (
          <>
            <Readout
              emphasis
              label="Prefix hit rate so far"
              value={
                <span data-readout="hit-rate" data-final={s.hitRate}>
                  {formatPercent(live.hitRate)}
                </span>
              }
              formula={`Σ reused ÷ Σ (reused + prefilled) tokens = ${formatCount(live.reusedTokens)} ÷ ${formatCount(live.servedTokens)}; whole run ${formatPercent(s.hitRate)}, ${cName} ${formatPercent(c?.hitRate)}`}
            />
            <Readout
              label="TTFT p50 so far"
              value={
                <span data-readout="ttft-p50" data-final={s.ttftP50}>
                  {formatDuration(live.ttftP50)}
                </span>
              }
              formula={`median over ${live.requests} first tokens; whole run ${formatDuration(s.ttftP50)}, ${cName} ${formatDuration(c?.ttftP50)}`}
            />
            <Readout
              emphasis
              label="TTFT p90 so far"
              value={
                <span data-readout="ttft-p90" data-final={s.ttftP90}>
                  {formatDuration(live.ttftP90)}
                </span>
              }
              formula={`whole run ${formatDuration(s.ttftP90)}, ${cName} ${formatDuration(c?.ttftP90)}`}
            />
            <Readout
              label="Load imbalance so far"
              value={
                <span data-readout="imbalance" data-final={s.imbalance}>
                  {formatRatio(live.imbalance)}
                </span>
              }
              formula={`max ÷ mean GPU-seconds per replica (1× = even); whole run ${formatRatio(s.imbalance)}, ${cName} ${formatRatio(c?.imbalance)}`}
            />
            <Readout
              label="Session KV held in duplicate now"
              value={
                <span data-readout="duplicate-kv">{formatBytesDecimal(dupBlocks * r.bytesPerBlock)}</span>
              }
              formula={`${formatNumber(dupBlocks)} blocks × ${formatBytesDecimal(r.bytesPerBlock)}: copies beyond the first of each session's blocks, over all replicas`}
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            {r.sessions} agent sessions ({ANIMATION_ARRIVAL_S} s of arrivals at {formatNumber(v.sessionsPerS)}
            /s), each a shared 5k-token head (system prompt and tool schemas), its task and 6–16 turns with a
            web-tool call between them; Qwen3-32B on 2 × H100 per replica, {formatCount(r.hbmBlocks)} KV
            blocks of {r.blockSize} tokens each. Marks: one per request, labelled with its session; dashed =
            waiting, ringed = prefilling, solid = decoding. Bars: each replica’s HBM by session, the hatched
            part is the shared head.
          </>
        ) : null
      }
      tryThis={
        <ul>
          <li>
            Play round-robin and follow S1: its turns visit every replica in turn, and within a few turns its
            prefix sits in every replica’s bar. Switch to cache-aware: each session’s blocks stay in one bar,
            and the hit rate and p90 TTFT read-outs move.
          </li>
          <li>
            Pick cache-aware at 0.3 sessions/s and try load thresholds 32, 3 and 0. At 32 new sessions pile
            onto the replicas that cached the shared head first (load imbalance); at 0 the router balances on
            every request and the hit rate falls most of the way to round-robin’s. Which of the two costs more
            p90 TTFT?
          </li>
          <li>
            Compare least load and power of two with round-robin: they balance the load well and still scatter
            sessions, so the hit rate barely moves. Load is not where the cost is.
          </li>
        </ul>
      }
    >
      {r ? (
        <>
          <RouterPicture r={r} t={t} follow={follow} />
          <div className="router-follow">
            <label htmlFor={followId}>Follow a session</label>
            <select
              id={followId}
              value={followChoice === null ? '' : String(followChoice)}
              onChange={(e) => setFollow(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
            >
              <option value="">none</option>
              {Array.from({ length: r.sessions }, (_, i) => (
                <option key={i} value={i}>
                  {sessionLabel(i)}
                </option>
              ))}
            </select>
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
            </span>
          </div>
        </>
      ) : null}
    </WidgetFrame>
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
