/** 07.06's exercises: the answers come from the same worker method as the tool-latency widget. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatBytesDecimal, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import { TOOL_LATENCY_PRESETS } from '../../sim/engine/fleet/dist';
import { formatByteSeconds } from './ToolLatency';

const WEB = TOOL_LATENCY_PRESETS.web;
/** σ as the exercise prints it (the preset's is ln 15 / (2 z₉₉), a long decimal). */
const WEB_SIGMA = formatNumber(WEB.sigma, 3);
const WEB_MEDIAN = formatNumber(WEB.median, 3);

const TTL_ARGS = { tool: 'web', ttlS: 2, contextTokens: 30_000, after: 'evict' } as const;

/** The TTL at which 90% of web/API pauses are over: the 90th percentile of the web preset. */
export function TtlQuantileExercise() {
  const sim = useSimulation('toolLatency', TTL_ARGS);
  const p = sim.result?.selected;
  const atQ = useSimulation('toolLatency', p ? { ...TTL_ARGS, ttlS: p.p90S } : null).result?.costs;
  return (
    <Exercise
      id="07-06-ttl-for-90"
      question={
        <p>
          An agent’s tool is a web API whose latency is log-normal with a median of{' '}
          {formatDuration(WEB.median)} and σ = {WEB_SIGMA} (the “web / API calls” preset). What time-to-live
          τ, in seconds, keeps 90% of the paused sessions’ KV in HBM until their resume? Predict first, then
          check it in the tool-latency widget.
        </p>
      }
      answer={p ? p.p90S : null}
      tolerance={0.03}
      unit="s"
      format={(v) => `${formatNumber(v, 3)} s`}
      hint={
        <p>
          A pause is resumed in HBM when it ends before τ, so you need F(τ) = Φ((ln τ − ln {WEB_MEDIAN}) /{' '}
          {WEB_SIGMA}) = 0.9. The 90th percentile of the standard normal is z₀.₉ = 1.2816: solve (ln τ − ln{' '}
          {WEB_MEDIAN}) / {WEB_SIGMA} = 1.2816 for τ.
        </p>
      }
      explanation={
        p && atQ ? (
          <p>
            τ = {formatDuration(WEB.median)} × e^({WEB_SIGMA} × 1.2816) = {formatDuration(p.p90S, 3)}. The
            other 10% of calls run longer and cost a recompute. Holding for τ costs E[min(T, τ)] ={' '}
            {formatDuration(atQ.heldS)} of HBM time per pause instead of E[T] = {formatDuration(atQ.meanS)} to
            hold every session to its resume: {formatPercent(atQ.heldS / atQ.meanS)} of the memory for 90% of
            the warm resumes. For a heavy tail, the last few percent of coverage are the expensive ones.
          </p>
        ) : null
      }
    />
  );
}

const HELD_ARGS = { tool: 'coding-mix', ttlS: 2, contextTokens: 30_000, after: 'evict' } as const;

/** The HBM byte-seconds one paused 30k-token session holds under a 2 s TTL with the coding-agent mix. */
export function HeldByteSecondsExercise() {
  const c = useSimulation('toolLatency', HELD_ARGS).result?.costs;
  return (
    <Exercise
      id="07-06-held-byte-seconds"
      question={
        <p>
          A coding agent pauses for a tool with 30,000 tokens of Qwen3-32B context in HBM (256 KiB of KV per
          token). Its tool calls follow the coding-agent mix (fitted per agent to TraceLab’s Claude Code and
          Codex tool calls). Under a 2 s TTL, how much HBM does one pause hold on average, in GB·s
          (gigabyte-seconds)? Predict first, then check with the tool-latency widget (its defaults are this
          session).
        </p>
      }
      answer={c ? c.heldByteSeconds / 1e9 : null}
      tolerance={0.05}
      unit="GB·s"
      format={(v) => `${formatNumber(v, 3)} GB·s`}
      hint={
        <p>
          Held byte-seconds = b · E[min(T, τ)], with b = 30,000 × 262,144 bytes. E[min(T, τ)] is less than τ
          (most calls end long before 2 s) and far less than E[T]:{' '}
          {c ? formatPercent(c.resumedInHbm) : 'most'} of calls end within 2 s, most of them in a fraction of
          a second, and the rest are cut off at τ.
        </p>
      }
      explanation={
        c ? (
          <p>
            b = {formatBytesDecimal(c.contextBytes)} and E[min(T, 2 s)] = M(τ) + τ·(1 − F(τ)) ={' '}
            {formatDuration(c.heldS)}, so one pause holds {formatByteSeconds(c.heldByteSeconds)}. Holding
            until the resume would hold b · E[T] = {formatByteSeconds(c.holdByteSeconds)},{' '}
            {formatNumber(c.holdByteSeconds / c.heldByteSeconds, 3)} times as much, for the{' '}
            {formatPercent(1 - c.resumedInHbm)} of pauses that outlast the TTL.
          </p>
        ) : null
      }
    />
  );
}
