/**
 * Animated router (lesson 07.03): agent sessions' requests travel from a router to R replicas under one of six
 * policies. Each replica shows its queue, its batch and what its HBM holds, by session. The read-outs (hit
 * rate, TTFT p50/p90, load imbalance, KV held in duplicate) are live: computed from the run up to the playhead.
 * One fleet-simulator run in the worker (method routerAnimation) gives frames and a per-request table; the
 * picture and the read-outs are functions of (result, t). The run streams in as it advances (chunks of frames
 * and final request rows): the picture of a new setting shows as soon as the run has reached the playhead, and
 * the whole-run figures, the comparison and the request table follow when it ends (the widget is busy till then).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ParamControls } from '../kit/controls/ParamControls';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useSimulation, useStreamingSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { WidgetFrame } from '../kit/WidgetFrame';
import { usePreferences } from '../../app/services';
import { formatCount, formatNumber } from '../../lib/format';
import { LAB_AGENT, LAB_SHARED_TOKENS, LAB_TP, POLICY_LABELS } from '../../sim/lessons/routing/constants';
import { assembleChunks, type RouterPictureRun } from '../../sim/lessons/routing/streamed';
import { MarkLegend } from './MarkLegend';
import { chunksFor, NO_CHUNKS } from './playhead';
import { RouterReadouts } from './RouterReadouts';
import { routeText, RouterPicture } from './RouterPicture';
import {
  ANIMATION_ARRIVAL_S,
  ANIMATION_PLAY_RATE,
  ANIMATION_START_S,
  CACHE_ROUTER_ID,
  cacheRouterArgs,
  cacheRouterComparisonArgs,
  comparisonPolicy,
  cacheRouterSchema,
} from './schema';
import { sessionLabel } from './sessionStyle';
import { SglangDefault } from './figures';
import { TryThis, type TryItem } from '../kit/TryThis';
import { TourTransport } from '../kit/TourTransport';
import { TourMark } from '../kit/TourMark';
import './cache-router.css';

/** The lab's sessions' turns, as the workload draws them (uniform between the two). */
const LAB_TURNS =
  LAB_AGENT.turns.kind === 'uniform' ? `${LAB_AGENT.turns.min}–${LAB_AGENT.turns.max}` : 'several';

/**
 * "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-03-try-this and
 * tests/lesson-07-03 check their claims). Items that play start at the warmed-up playhead.
 */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Let round-robin play: within seconds every HBM bar is full and most arrivals are red, because each
        turn lands where its session is not.
      </>
    ),
    set: { policy: 'round-robin' },
    time: ANIMATION_START_S,
    play: true,
    highlight: 'hbm-fill',
  },
  {
    text: (
      <>
        Switch to cache-aware: arrivals turn green, the hit rate and p90 TTFT read-outs move, and the router’s
        reason names the replica holding the prefix.
      </>
    ),
    set: { policy: 'cache-aware' },
    time: ANIMATION_START_S,
    play: true,
    highlight: 'hit-rate',
  },
  {
    text: (
      <>
        On round-robin, give the fleet a 500 GB shared KV pool: cold turns now reload their prefix from the
        pool (hatched blue, a dashed link from the pool) instead of prefilling it, and the hit rate climbs
        toward cache-aware’s. This is the tier lessons 07.04 and 07.05 build.
      </>
    ),
    set: { policy: 'round-robin', poolGB: 500 },
    time: ANIMATION_START_S,
    play: true,
    highlight: 'pool-hits',
  },
  {
    text: (
      <>
        Pick cache-aware at 0.3 sessions/s with a load threshold of 32: new sessions pile onto the replicas
        that cached the shared head first, and the load imbalance shows it.
      </>
    ),
    set: { policy: 'cache-aware', sessionsPerS: 0.3, loadThreshold: 32 },
    highlight: 'imbalance',
  },
  {
    text: <>Then a threshold of 3: the load evens out and the hit rate stays where it was.</>,
    set: { policy: 'cache-aware', sessionsPerS: 0.3, loadThreshold: 3 },
    highlight: 'imbalance',
  },
  {
    text: (
      <>
        Then 0: only the relative test is left, so the router balances whenever the longest queue is more than{' '}
        <SglangDefault name="balanceRelThreshold" /> times the shortest (an idle replica is enough), which
        here is almost every request, and the hit rate falls most of the way to round-robin’s. Which costs
        more p90 TTFT, 32 or 0?
      </>
    ),
    set: { policy: 'cache-aware', sessionsPerS: 0.3, loadThreshold: 0 },
    highlight: 'hit-rate',
  },
  {
    text: (
      <>
        Compare least load with round-robin: its reasons cite the queue it picked, the load stays even and the
        p90 TTFT drops a little, yet it still scatters sessions, so the hit rate barely moves.
      </>
    ),
    set: { policy: 'least-load' },
    highlight: 'hit-rate',
  },
  {
    text: <>Then power of two: the same story, two random replicas at a time.</>,
    set: { policy: 'power-of-two' },
    highlight: 'hit-rate',
  },
  {
    text: (
      <>
        Back to cache-aware over SGLang&apos;s approximate tree, at SGLang&apos;s own load threshold of{' '}
        <SglangDefault name="balanceAbsThreshold" />: new sessions follow the shared head to one replica,
        whose queue grows while the others idle, and the hit rate ends below round-robin&apos;s.
      </>
    ),
    set: { policy: 'cache-aware', cacheView: 'approximate', loadThreshold: 64 },
    highlight: 'hit-rate',
  },
];

export function CacheRouter() {
  const params = useWidgetParams(CACHE_ROUTER_ID, cacheRouterSchema);
  const v = params.values;
  const compareWith = comparisonPolicy(v);
  const args = useMemo(() => cacheRouterArgs(v), [v]);
  const cmpArgs = useMemo(() => cacheRouterComparisonArgs(v), [v]);
  const sim = useStreamingSimulation('routerAnimation', args);
  const cmp = useSimulation('routerSummaries', cmpArgs);
  const cmpCurrent = cmp.status === 'ready' && !cmp.stale;
  /** The whole run for the current settings, or null while it streams (or has not begun). */
  const done = sim.result !== null && !sim.stale ? sim.result : null;
  // The current settings' run so far (the last result is for older settings until this one ends).
  const chunks = done ? NO_CHUNKS : sim.frames;
  const readyS = chunks.length > 0 ? chunks[chunks.length - 1].readyS : 0;
  const previous = sim.result;
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const transport = useTransport({
    // While a run streams, the timeline keeps the previous run's length (so the playhead stays where it was).
    duration: done ? done.endS : Math.max(previous?.endS ?? 0, ANIMATION_START_S, readyS),
    rate: ANIMATION_PLAY_RATE,
    step: 1,
    autoplay: true,
    reducedMotion: reduced,
    available: done ? undefined : readyS,
  });
  const t = transport.t;
  // Put together only the chunks the playhead needs (and some ahead), not at every chunk that arrives: the
  // picture drawn from them is the same, and each new run object redraws it.
  const needed = chunksFor(chunks, t);
  const firstChunk = chunks[0];
  const streamed = useMemo(
    () => (needed > 0 ? assembleChunks(chunks.slice(0, needed)) : null),
    // The chunks of one run only grow, so its first chunk and the count name the prefix.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [firstChunk, needed],
  );
  /**
   * What the picture shows: the whole run; else the streaming run once it has reached the playhead (everything
   * before readyS is final); else the previous settings' run, marked stale, until it has.
   */
  const shown: RouterPictureRun | null = done ?? (streamed && t < streamed.readyS ? streamed : previous);
  const showsNew = done !== null || (shown !== null && shown === streamed);
  /** The run whose whole-run figures and request table show: only a finished one has them. */
  const whole = done ?? (showsNew ? null : previous);
  const r = shown;
  // The first run starts the playhead on a warmed-up fleet; later ones (a control moved) keep the time.
  const started = useRef(false);
  const { seek } = transport;
  useEffect(() => {
    if (started.current || (!done && chunks.length === 0 && !previous)) return;
    started.current = true;
    seek(Math.min(ANIMATION_START_S, done?.endS ?? ANIMATION_START_S));
  }, [done, chunks.length, previous, seek]);
  const [followChoice, setFollow] = useState<number | null>(0);
  const follow = shown && followChoice !== null && followChoice < shown.sessions ? followChoice : null;
  const followId = useId();
  const cName = POLICY_LABELS[compareWith].toLowerCase();

  return (
    <WidgetFrame
      id={CACHE_ROUTER_ID}
      title="Animated router: where each session's turns land"
      status={
        sim.status === 'error' || (shown && cmp.status === 'error') ? 'error' : shown ? 'ready' : 'loading'
      }
      error={sim.error ?? cmp.error}
      onRetry={() => {
        sim.retry();
        cmp.retry();
      }}
      stale={!done || !cmpCurrent}
      // A new value when the picture first shows the new settings' run (streaming), again when it is whole.
      drawn={
        !showsNew
          ? null
          : `${JSON.stringify(args)}:${!done ? 'streaming' : cmpCurrent ? 'with comparison' : 'picture'}`
      }
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        setFollow(0);
        transport.seek(ANIMATION_START_S);
      }}
      onKeyDown={transport.handleKey}
      controls={<ParamControls params={params} />}
      // Seconds to the tenth, as the picture's own "t = 40.0 s" (never "1.17 min" for 70 s).
      transport={<TransportBar transport={transport} format={(x) => `${x.toFixed(1)} s`} />}
      exportData={() => ({
        rows: whole
          ? Array.from({ length: whole.requests.count }, (_, i) => ({
              request: i,
              session: sessionLabel(whole.requests.session[i]),
              turn: whole.requests.turn[i] + 1,
              replica: whole.requests.replica[i] + 1,
              reason: whole.reason[i] === 255 ? '' : whole.reasonNames[whole.reason[i]],
              why: routeText(whole, i),
              queuedOnReplica: whole.requests.queued[i],
              poolReloadedTokens: whole.requests.reusedPoolTokens[i],
              arrivalS: whole.requests.arrival[i],
              ttftS: whole.requests.firstToken[i] - whole.requests.arrival[i],
              promptTokens: whole.requests.promptTokens[i],
              reusedTokens: whole.requests.reusedTokens[i],
            }))
          : [],
        json: {
          parameters: v,
          summary: whole?.summary,
          comparison: cmpCurrent ? cmp.result?.[0] : undefined,
          config: whole
            ? { hbmBlocks: whole.hbmBlocks, blockSize: whole.blockSize, bytesPerBlock: whole.bytesPerBlock }
            : null,
        },
      })}
      readouts={
        r ? (
          <RouterReadouts
            r={r}
            t={t}
            whole={whole?.summary}
            compared={cmpCurrent ? cmp.result?.[0]?.summary : undefined}
            comparedName={cName}
          />
        ) : null
      }
      caption={
        r ? (
          <>
            {r.sessions} agent sessions ({ANIMATION_ARRIVAL_S} s of arrivals at {formatNumber(v.sessionsPerS)}
            /s), each a shared {formatCount(LAB_SHARED_TOKENS)}-token head (system prompt and tool schemas),
            its task and {LAB_TURNS} turns with a web-tool call between them; Qwen3-32B on {LAB_TP} × H100 per
            replica, {formatCount(r.hbmBlocks)} KV blocks of {r.blockSize} tokens each
            {r.poolGB > 0 ? `, and a ${formatNumber(r.poolGB, 4)} GB KV pool shared by all replicas` : ''}.
            The playhead starts at {ANIMATION_START_S} s, while HBM is still filling; scrub back to watch it
            fill from empty. Each request leaves the router as a mark labelled with its session, trailing a
            line to the replica it was sent to. On arrival its prompt is split: green the tokens the replica
            already held (hit),
            {r.poolGB > 0 ? ' hatched blue the tokens reloaded from the pool,' : ''} red the tokens it must
            prefill (miss). Marks in a replica: dashed = waiting, ringed = prefilling, solid = decoding. The
            HBM bar shows what each replica holds, by session; the hatched part is the shared head.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <TourTransport transport={transport} />
      {r ? (
        <>
          {/* The animated fleet, which lesson 07.03's tour highlights. */}
          <TourMark id="router-picture">
            <RouterPicture r={r} t={t} follow={follow} />
          </TourMark>
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
            <MarkLegend pool={r.poolGB > 0} />
          </div>
        </>
      ) : null}
    </WidgetFrame>
  );
}
