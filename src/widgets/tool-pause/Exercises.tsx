/** 07.06's exercises: the answers come from the same core as the tool-latency widget (its worker method). */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import {
  formatBytes,
  formatBytesDecimal,
  formatDuration,
  formatNumber,
  formatPercent,
  formatWhole,
} from '../../lib/format';
import { TOOL_LATENCY_PRESETS } from '../../sim/engine/fleet/dist';
import type { PauseCosts } from '../../sim/lessons/pauseCosts';
import { PAUSE_REPLICA } from './schema';
import { normQuantile } from '../../sim/lessons/standardNormal';
import { quantile } from '../../sim/lessons/toolLatency';
import { formatByteSeconds } from './ToolLatency';
import { ordinal } from '../../lib/numberWords';

const WEB = TOOL_LATENCY_PRESETS.web;
/** σ as the exercise prints it (the preset's is ln 15 / (2 z₉₉), a long decimal). */
const WEB_SIGMA = formatNumber(WEB.sigma, 3);
const WEB_MEDIAN = formatNumber(WEB.median, 3);

/** The share of web/API pauses the TTL is to keep warm: τ is the preset's quantile at it. */
export const TTL_COVERAGE = 0.9;
/** The answer: the TTL at which TTL_COVERAGE of the pauses are over (the core's closed-form quantile). */
export const TTL_FOR_COVERAGE = quantile(WEB, TTL_COVERAGE);
/** The standard normal's quantile at TTL_COVERAGE, as the hint and the explanation print it (1.2816). */
const Z = formatNumber(normQuantile(TTL_COVERAGE), 5);

/** z₀.₉: the quantile's subscript as printed (each digit as its subscript, U+2080–U+2089). */
const Z_NAME = `z${formatNumber(TTL_COVERAGE).replace(/\d/g, (d) => String.fromCharCode(0x2080 + Number(d)))}`;

/** What the explanation asks the worker (toolLatency): its costs at τ. */
export const TTL_ARGS = {
  tool: 'web',
  ttlS: TTL_FOR_COVERAGE,
  contextTokens: 30_000,
  after: 'evict',
} as const;

/**
 * The explanation's contrast: the coding-agent mix at the same τ. The web preset is one narrow log-normal, whose
 * calls past τ carry little of the tool time, so its TTL costs nearly all of hold's memory; the mix's heavy tail makes the same τ
 * cheap, because the few long calls that carry its idle time are the ones a TTL stops holding.
 */
export const TTL_CONTRAST_ARGS = { ...TTL_ARGS, tool: 'coding-mix' } as const;

export function TtlQuestion() {
  return (
    <p>
      An agent’s tool is a web API whose latency is log-normal with a median of {formatDuration(WEB.median)}{' '}
      and σ = {WEB_SIGMA} (the “web / API calls” preset). What time-to-live τ, in seconds, keeps{' '}
      {formatPercent(TTL_COVERAGE)} of the paused sessions’ KV in HBM until their resume? Predict first, then
      check it in the tool-latency widget.
    </p>
  );
}

export function TtlHint() {
  return (
    <p>
      A pause is resumed in HBM when it ends before τ, so you need F(τ) = Φ((ln τ − ln {WEB_MEDIAN}) /{' '}
      {WEB_SIGMA}) = {formatNumber(TTL_COVERAGE)}. The {ordinal(TTL_COVERAGE * 100)} percentile of the
      standard normal is {Z_NAME} = {Z}: solve (ln τ − ln {WEB_MEDIAN}) / {WEB_SIGMA} = {Z} for τ.
    </p>
  );
}

export function TtlExplanation({ costs, mix }: { costs: PauseCosts; mix: PauseCosts }) {
  return (
    <p>
      τ = {formatDuration(WEB.median)} × e^({WEB_SIGMA} × {Z}) = {formatDuration(TTL_FOR_COVERAGE, 3)}. The
      other {formatPercent(1 - TTL_COVERAGE)} of calls run longer and cost a recompute. Holding for τ costs
      E[min(T, τ)] = {formatDuration(costs.heldS)} of HBM time per pause instead of E[T] ={' '}
      {formatDuration(costs.meanS)} to hold every session to its resume:{' '}
      {formatPercent(costs.heldS / costs.meanS)} of the memory for {formatPercent(TTL_COVERAGE)} of the warm
      resumes. This tail is light (σ = {WEB_SIGMA}, a narrow log-normal): the calls that outlast τ carry
      little of the tool time, so cutting them off saves little. The coding-agent mix, whose tail is heavy,
      resumes {formatPercent(mix.resumedInHbm)} of its pauses in HBM at the same τ for{' '}
      {formatPercent(mix.heldS / mix.meanS)} of hold’s memory ({formatDuration(mix.heldS)} against{' '}
      {formatDuration(mix.meanS)}): there a few long calls carry most of the time, and a TTL stops holding
      through exactly those.
    </p>
  );
}

/** The TTL at which TTL_COVERAGE of web/API pauses are over: the quantile of the web preset. */
export function TtlQuantileExercise() {
  const atQ = useSimulation('toolLatency', TTL_ARGS).result?.costs;
  const mix = useSimulation('toolLatency', TTL_CONTRAST_ARGS).result?.costs;
  return (
    <Exercise
      id="07-06-ttl-for-90"
      question={<TtlQuestion />}
      answer={TTL_FOR_COVERAGE}
      tolerance={0.03}
      unit="s"
      format={(v) => `${formatNumber(v, 3)} s`}
      hint={<TtlHint />}
      explanation={atQ && mix ? <TtlExplanation costs={atQ} mix={mix} /> : null}
    />
  );
}

/**
 * The session of the held-byte-seconds exercise: the tool-latency widget's defaults but for τ. The prose and the
 * widget's default read-out print the byte-seconds at the default 2 s, so the exercise asks at a TTL the page does
 * not show.
 */
export const HELD_ARGS = { tool: 'coding-mix', ttlS: 5, contextTokens: 30_000, after: 'evict' } as const;

export function HeldQuestion() {
  return (
    <p>
      A coding agent pauses for a tool with {formatWhole(HELD_ARGS.contextTokens)} tokens of{' '}
      {PAUSE_REPLICA.modelName} context in HBM ({formatBytes(PAUSE_REPLICA.kvBytesPerToken)} of KV per token).
      Its tool calls follow the coding-agent mix (fitted per agent to TraceLab’s Claude Code and Codex tool
      calls). Under a {formatDuration(HELD_ARGS.ttlS)} TTL, how much HBM does one pause hold on average, in
      GB·s (gigabyte-seconds)? Predict first, then check with the tool-latency widget (its defaults are this
      session but for τ: set it to {formatDuration(HELD_ARGS.ttlS)}).
    </p>
  );
}

export function HeldHint({ c }: { c: PauseCosts | undefined }) {
  const tau = formatDuration(HELD_ARGS.ttlS);
  return (
    <p>
      Held byte-seconds = b · E[min(T, τ)], with b = {formatWhole(HELD_ARGS.contextTokens)} ×{' '}
      {formatNumber(PAUSE_REPLICA.kvBytesPerToken, 7)} bytes. E[min(T, τ)] is less than τ (most calls end long
      before {tau}) and far less than E[T]: {c ? formatPercent(c.resumedInHbm) : 'most'} of calls end within{' '}
      {tau}, most of them in a fraction of a second, and the rest are cut off at τ.
    </p>
  );
}

export function HeldExplanation({ c }: { c: PauseCosts }) {
  return (
    <p>
      b = {formatBytesDecimal(c.contextBytes)} and E[min(T, {formatDuration(c.ttlS)})] = M(τ) + τ·(1 − F(τ)) ={' '}
      {formatDuration(c.heldS)}, so one pause holds {formatByteSeconds(c.heldByteSeconds)}. Holding until the
      resume would hold b · E[T] = {formatByteSeconds(c.holdByteSeconds)},{' '}
      {formatNumber(c.holdByteSeconds / c.heldByteSeconds, 3)} times as much, for the{' '}
      {formatPercent(1 - c.resumedInHbm)} of pauses that outlast the TTL.
    </p>
  );
}

/** The HBM byte-seconds one paused session holds under a TTL with the coding-agent mix (HELD_ARGS). */
export function HeldByteSecondsExercise() {
  const c = useSimulation('toolLatency', HELD_ARGS).result?.costs;
  return (
    <Exercise
      id="07-06-held-byte-seconds"
      question={<HeldQuestion />}
      answer={c ? c.heldByteSeconds / 1e9 : null}
      tolerance={0.05}
      unit="GB·s"
      format={(v) => `${formatNumber(v, 3)} GB·s`}
      hint={<HeldHint c={c} />}
      explanation={c ? <HeldExplanation c={c} /> : null}
    />
  );
}
