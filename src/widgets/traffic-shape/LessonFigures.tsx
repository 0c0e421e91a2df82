/**
 * Inline figures for lesson 07.01's prose and table, computed by the same worker methods as its widgets (at
 * the widgets' defaults), so prose and widgets never disagree; published figures come from the catalog.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useMemo, type ReactNode } from 'react';
import { useSimulation } from '../kit/useSimulation';
import { formatDuration, formatNumber, formatPercent, formatRatio, formatTokens } from '../../lib/format';
import type { AssumptionFigures } from '../../sim/lessons/agentWorkloadFigures';
import type { TrajectoryTotals } from '../../sim/lessons/agentSession';
import {
  LESSON_ACCELERATOR_ID,
  LESSON_DECODE_BATCH,
  LESSON_MODEL_ID,
  LESSON_TP,
} from '../../sim/lessons/agentWorkloadSetup';
import {
  CODEX_SWEBENCH_PRO,
  MOONCAKE_CONVERSATION,
  MOONCAKE_CONVERSATION_IDEAL_HIT_RATIO,
  MOONCAKE_TOOL_AGENT,
  publishedIoRatio,
} from '../../sim/engine/catalog/traces';
import { TOOL_LATENCY_PRESETS } from '../../sim/engine/fleet/dist';
import { cdf, mean, quantile, timeShare } from '../../sim/lessons/toolLatency';
import { findModel } from '../../sim/engine/catalog/models';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import { LESSON_WORKLOAD } from './schema';
import { trajectorySchema } from '../trajectory-anatomy/schema';
import type { ToolLatencyPreset } from '../../sim/engine/fleet/dist';
import { ENGINE_BLOCK_SIZE } from '../../sim/engine/blocks';
import { MOONCAKE_BLOCK_SIZE } from '../../sim/engine/trace/mooncake';

type WorkloadMetric = keyof AssumptionFigures | 'idealHitRatio';

const FORMAT: Record<WorkloadMetric, (v: number) => string> = {
  requests: (v) => formatNumber(v, 6),
  sessions: (v) => formatNumber(v, 6),
  medianTurns: (v) => formatNumber(v),
  meanInputTokens: (v) => formatTokens(v),
  meanOutputTokens: (v) => formatTokens(v),
  ioRatio: (v) => formatRatio(v),
  continuingShare: (v) => formatPercent(v),
  prefixShare: (v) => formatPercent(v),
  medianGapS: (v) => formatDuration(v, 2),
  medianInputTokens: (v) => formatTokens(v),
  medianNewTokens: (v) => formatTokens(v),
  contextGrowth: (v) => formatRatio(v, 2),
  prefillShareNoReuse: (v) => formatPercent(v, 2),
  prefillShareReuse: (v) => formatPercent(v, 2),
  idealHitRatio: (v) => formatPercent(v),
};

/** A figure of the lesson's generated workload (the Traffic shape widget's defaults), for agents or chat. */
export function WorkloadFigure({ of, metric }: { of: 'agent' | 'chat'; metric: WorkloadMetric }) {
  const sim = useSimulation('workloadFigures', LESSON_WORKLOAD);
  const r = sim.result?.[of];
  if (!r) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const v = metric === 'idealHitRatio' ? r.shape.idealHitRatio.tokens : r.figures[metric];
  return (
    <InlineFigure
      value={FORMAT[metric](v)}
      title={`${of === 'agent' ? 'Coding agents' : 'Chat'}: ${LESSON_WORKLOAD.sessions} sessions, seed ${LESSON_WORKLOAD.seed}`}
    />
  );
}

/** Tokens per block: the widget's and Mooncake's (512), vLLM's default (16), or one (SGLang's radix tree). */
const BLOCK_TOKENS = { mooncake: MOONCAKE_BLOCK_SIZE, engine: ENGINE_BLOCK_SIZE, token: 1 } as const;

/** A block size the prose names, from the constant the figures use. */
export function BlockTokens({ of }: { of: 'mooncake' | 'engine' }) {
  return <InlineFigure value={formatNumber(BLOCK_TOKENS[of])} />;
}

/**
 * The ideal prefix hit ratio of the lesson's chat workload cut into finer blocks than the widget's 512 (Mooncake's
 * granularity, which misses the shared part of a prompt's last partial block: much of a short chat prompt, a sliver
 * of an agent's): vLLM's 16-token blocks, or token by token as SGLang's radix tree matches.
 */
export function ChatFinerHitRatio({ blocks }: { blocks: 'engine' | 'token' }) {
  const blockSize = BLOCK_TOKENS[blocks];
  const args = useMemo(() => ({ ...LESSON_WORKLOAD, mix: 'chat' as const, blockSize }), [blockSize]);
  const sim = useSimulation('workloadShape', args);
  const h = sim.result?.shape.idealHitRatio.tokens;
  return (
    <InlineFigure
      value={h === undefined ? null : formatPercent(h)}
      failed={sim.status === 'error'}
      title={`Chat: ${LESSON_WORKLOAD.sessions} sessions, seed ${LESSON_WORKLOAD.seed}, ${formatNumber(blockSize)}-token blocks`}
    />
  );
}

/** The swing of a turn's prefill between cold (nothing cached) and warm (its prefix cached): median I / median n. */
export function ColdWarmSwing({ of }: { of: 'agent' | 'chat' }) {
  const sim = useSimulation('workloadFigures', LESSON_WORKLOAD);
  const f = sim.result?.[of].figures;
  return <InlineFigure value={f ? formatRatio(f.medianInputTokens / f.medianNewTokens, 2) : null} />;
}

type TrajectoryMetric =
  | keyof Pick<
      TrajectoryTotals,
      | 'turns'
      | 'ioRatio'
      | 'prefixShare'
      | 'lastPromptTokens'
      | 'inputTokens'
      | 'outputTokens'
      | 'newTokens'
      | 'wallS'
      | 'modelS'
    >
  | 'modelShare';

/** A figure of the Trajectory anatomy widget's default session. */
export function TrajectoryFigure({ of, metric }: { of: 'agent' | 'chat'; metric: TrajectoryMetric }) {
  const sim = useSimulation('agentTrajectory', {
    seed: trajectorySchema.seed.default,
    toolLatency: trajectorySchema.toolLatency.default as ToolLatencyPreset,
    medianTurns: trajectorySchema.medianTurns.default,
  });
  const t = sim.result?.[of].totals;
  if (!t) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const text: Record<TrajectoryMetric, () => string> = {
    turns: () => formatNumber(t.turns),
    ioRatio: () => formatRatio(t.ioRatio),
    prefixShare: () => (t.prefixShare === null ? '—' : formatPercent(t.prefixShare)),
    lastPromptTokens: () => formatTokens(t.lastPromptTokens),
    inputTokens: () => formatTokens(t.inputTokens),
    outputTokens: () => formatTokens(t.outputTokens),
    newTokens: () => formatTokens(t.newTokens),
    wallS: () => formatDuration(t.wallS, 2),
    modelS: () => formatDuration(t.modelS, 2),
    modelShare: () => formatPercent(t.wallS > 0 ? t.modelS / t.wallS : NaN, 2),
  };
  return <InlineFigure value={text[metric]()} />;
}

const PUBLISHED = { conversation: MOONCAKE_CONVERSATION, agent: MOONCAKE_TOOL_AGENT } as const;

/** A published trace statistic (Mooncake FAST'25 Table 2), or its derived input:output ratio. */
export function PublishedFigure({
  trace,
  metric,
}: {
  trace: keyof typeof PUBLISHED;
  metric: 'avgInputTokens' | 'avgOutputTokens' | 'cacheRatio' | 'ioRatio' | 'idealHitRatio';
}) {
  const t = PUBLISHED[trace];
  if (metric === 'idealHitRatio') {
    // Only computed for the conversation trace (the one released file at hand).
    return (
      <InlineFigure
        value={trace === 'conversation' ? formatPercent(MOONCAKE_CONVERSATION_IDEAL_HIT_RATIO) : '—'}
        title="This course's trace-stats on the released file"
      />
    );
  }
  const value =
    metric === 'ioRatio'
      ? formatRatio(publishedIoRatio(t))
      : metric === 'cacheRatio'
        ? formatPercent(t.cacheRatio)
        : `${formatNumber(t[metric], 6)} tokens`;
  return <InlineFigure value={value} title={t.source} />;
}

/**
 * The coding-agent tool-latency preset (src/sim/engine/fleet/dist.ts, TraceLab's Claude Code and Codex tool calls
 * fitted per agent and mixed) in closed form (src/sim/lessons/toolLatency.ts): its median, mean, share of calls
 * over a minute and the share of tool time those calls take.
 */
export function ToolLatencyFigure({ stat }: { stat: 'median' | 'mean' | 'overMinute' | 'timeOverMinute' }) {
  const d = TOOL_LATENCY_PRESETS['coding-mix'];
  const value =
    stat === 'median'
      ? formatDuration(quantile(d, 0.5), 2)
      : stat === 'mean'
        ? formatDuration(mean(d), 2)
        : stat === 'overMinute'
          ? formatPercent(1 - cdf(d, 60))
          : formatPercent(1 - timeShare(d, 60));
  return (
    <InlineFigure
      value={value}
      title="Coding-mix preset, fitted to TraceLab's Claude Code and Codex tool calls"
    />
  );
}

/** The Codex / SWE-bench Pro figures of the vLLM–Mooncake blog. */
export function CodexFigure({
  metric,
}: {
  metric: 'cacheHitRate' | 'inputOutputRatio' | 'meanTurns' | 'medianTurns' | 'contextTokensByTurn30';
}) {
  const c = CODEX_SWEBENCH_PRO;
  const value =
    metric === 'cacheHitRate'
      ? formatPercent(c.cacheHitRate)
      : metric === 'inputOutputRatio'
        ? formatRatio(c.inputOutputRatio)
        : metric === 'meanTurns' || metric === 'medianTurns'
          ? formatNumber(c[metric])
          : formatTokens(c.contextTokensByTurn30);
  return <InlineFigure value={value} title={c.source} />;
}

/** What the lesson's GPU-time figures assume: model, replica, decode batch. */
export function LessonHardware(): ReactNode {
  const m = findModel(LESSON_MODEL_ID);
  const a = findAccelerator(LESSON_ACCELERATOR_ID);
  return (
    <span className="figure">
      {m?.name} on {LESSON_TP} × {a?.name}, decode batch {LESSON_DECODE_BATCH}
    </span>
  );
}
