/**
 * Inline figures for lesson 07.06's prose, computed by the same worker methods as its widgets (the arena's
 * figures by the very runs the arena draws at its defaults, shared through the worker's memo), so prose and
 * widgets never disagree.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import { defaultValues } from '../../state/paramSchema';
import { formatBytesDecimal, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import type { ToolLatencyPreset } from '../../sim/engine/fleet/dist';
import {
  PAUSE_DRAM_GB,
  PAUSE_DURATION_S,
  PAUSE_POLICY_LABELS,
  PAUSE_SLO,
  PAUSE_SYSTEM_TOKENS,
  PAUSE_TOOL_TOKENS,
  PAUSE_TP,
  pauseAgent,
  type PausePolicyId,
} from '../../sim/lessons/pauseLabSetup';
import type { MissKind } from '../../sim/lessons/pauseCosts';
import { arenaArgs } from './PauseArena';
import { idleHbmBytes } from './arenaData';
import { formatByteSeconds } from './ToolLatency';
import { pauseArenaSchema, toolLatencySchema } from './schema';

const TOOL_DEFAULTS = defaultValues(toolLatencySchema);

type ToolStat =
  | 'median'
  | 'mean'
  | 'p90'
  | 'p99'
  | 'callsUnder1s'
  | 'timeUnder1s'
  | 'callsOver1min'
  | 'timeOver1min'
  | 'resumedInHbm';

/** A statistic of a tool-latency preset (the fitted distribution), optionally at a TTL. */
export function ToolFig({
  tool = 'coding-mix',
  stat,
  ttl = 2,
}: {
  tool?: ToolLatencyPreset;
  stat: ToolStat;
  ttl?: number;
}) {
  const sim = useSimulation('toolLatency', {
    tool,
    ttlS: ttl,
    contextTokens: TOOL_DEFAULTS.contextTokens,
    after: 'evict',
  });
  const p = sim.result?.selected;
  if (!p) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const text: Record<ToolStat, () => string> = {
    median: () => formatDuration(p.medianS, 2),
    mean: () => formatDuration(p.meanS, 3),
    p90: () => formatDuration(p.p90S, 2),
    p99: () => formatDuration(p.p99S, 2),
    callsUnder1s: () => formatPercent(p.callsUnder1s, 2),
    timeUnder1s: () => formatPercent(p.timeUnder1s, 2),
    callsOver1min: () => formatPercent(p.callsOver1min, 2),
    timeOver1min: () => formatPercent(p.timeOver1min, 2),
    resumedInHbm: () => formatPercent(p.resumedInHbm, 2),
  };
  return <InlineFigure value={text[stat]()} title={`${p.label}: fit in src/sim/engine/fleet/dist.ts`} />;
}

/** P(a call that has already run t seconds ends within the next second). */
export function NextSecondFig({
  tool = 'coding-mix',
  t,
}: {
  tool?: ToolLatencyPreset;
  t: 0.1 | 1 | 10 | 60 | 600;
}) {
  const sim = useSimulation('toolLatency', {
    tool,
    ttlS: 2,
    contextTokens: TOOL_DEFAULTS.contextTokens,
    after: 'evict',
  });
  const row = sim.result?.selected.nextSecond.find((x) => x.t === t);
  return (
    <InlineFigure
      value={row ? formatPercent(row.p, 2) : null}
      title={`(F(${t} + 1) − F(${t})) / (1 − F(${t}))`}
    />
  );
}

type CostStat =
  | 'contextBytes'
  | 'kvBudget'
  | 'heldS'
  | 'meanS'
  | 'heldByteSeconds'
  | 'holdByteSeconds'
  | 'heldShare'
  | 'recomputeS'
  | 'reloadS'
  | 'holdPerS'
  | 'optimalTtl'
  | 'costOptimal'
  | 'costAtTtl'
  | 'costHold'
  | 'costLetGo'
  | 'linkBandwidth'
  | 'contextsFit';

/** One paused session on the lab replica (the tool-latency widget's defaults unless given). */
export function CostFig({
  stat,
  tool = TOOL_DEFAULTS.tool as ToolLatencyPreset,
  ttl = TOOL_DEFAULTS.ttlS,
  context = TOOL_DEFAULTS.contextTokens,
  after = TOOL_DEFAULTS.after as MissKind,
}: {
  stat: CostStat;
  tool?: ToolLatencyPreset;
  ttl?: number;
  context?: number;
  after?: MissKind;
}) {
  const sim = useSimulation('toolLatency', { tool, ttlS: ttl, contextTokens: context, after });
  const c = sim.result?.costs;
  if (!c) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const rs = (x: number) => `${formatNumber(x, 2)} replica-s`;
  const text: Record<CostStat, () => string> = {
    contextBytes: () => formatBytesDecimal(c.contextBytes),
    kvBudget: () => formatBytesDecimal(c.replica.kvBudgetBytes),
    heldS: () => formatDuration(c.heldS),
    meanS: () => formatDuration(c.meanS),
    heldByteSeconds: () => formatByteSeconds(c.heldByteSeconds),
    holdByteSeconds: () => formatByteSeconds(c.holdByteSeconds),
    heldShare: () => formatPercent(c.heldS / c.meanS, 2),
    recomputeS: () => formatDuration(c.recomputeS),
    reloadS: () => formatDuration(c.reloadS),
    holdPerS: () => `${formatPercent(c.holdPerS, 2)} per second`,
    optimalTtl: () => (c.optimal.ttlS === Infinity ? '∞' : formatDuration(c.optimal.ttlS, 2)),
    costOptimal: () => rs(c.optimal.cost),
    costAtTtl: () => rs(c.costAtTtl),
    costHold: () => rs(c.optimal.costHold),
    costLetGo: () => rs(c.optimal.costLetGo),
    linkBandwidth: () => `${formatNumber(c.replica.linkBandwidth / 1e9)} GB/s`,
    contextsFit: () => formatNumber(Math.floor(c.replica.kvBudgetBytes / c.contextBytes)),
  };
  return (
    <InlineFigure
      value={text[stat]()}
      title={`${c.replica.modelName} on ${c.replica.tp} × ${c.replica.acceleratorName}`}
    />
  );
}

const ARENA_DEFAULTS = arenaArgs(defaultValues(pauseArenaSchema));

type ArenaStat =
  | 'idleHbm'
  | 'idleHbmShare'
  | 'idlePinned'
  | 'idleCached'
  | 'idleDram'
  | 'resumeP50'
  | 'resumeP90'
  | 'inHbm'
  | 'fromDram'
  | 'recomputed'
  | 'pcie'
  | 'pcieUp'
  | 'pcieDown'
  | 'throughput'
  | 'goodput'
  | 'budget';

/** A figure of the arena's default run of one policy (the same runs the widget draws). */
export function ArenaFig({ policy, stat }: { policy: PausePolicyId; stat: ArenaStat }) {
  const sim = useSimulation('pauseArena', ARENA_DEFAULTS);
  const run = sim.result?.runs.find((r) => r.summary.policy === policy);
  if (!run || !sim.result) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const s = run.summary;
  const bpb = sim.result.bytesPerBlock;
  const budget = run.hbmCapacityBlocks * bpb;
  const text: Record<ArenaStat, () => string> = {
    idleHbm: () => formatBytesDecimal(idleHbmBytes(s, bpb)),
    idleHbmShare: () => formatPercent(idleHbmBytes(s, bpb) / budget, 2),
    idlePinned: () => formatBytesDecimal(s.idlePinnedBlocks * bpb),
    idleCached: () => formatBytesDecimal(s.idleCachedBlocks * bpb),
    idleDram: () => formatBytesDecimal(s.idleDramBlocks * bpb),
    resumeP50: () => formatDuration(s.resumes.ttft.p50, 2),
    resumeP90: () => formatDuration(s.resumes.ttft.p90, 2),
    inHbm: () => formatPercent(s.resumes.inHbmShare, 3),
    fromDram: () => formatPercent(s.resumes.source.dram, 2),
    recomputed: () => formatPercent(s.resumes.source.recomputed, 2),
    pcie: () => formatBytesDecimal(s.pcieUpBytes + s.pcieDownBytes, 2),
    pcieUp: () => formatBytesDecimal(s.pcieUpBytes, 2),
    pcieDown: () => formatBytesDecimal(s.pcieDownBytes, 2),
    throughput: () => `${formatNumber(s.outputTokensPerS)} tokens/s`,
    goodput: () => formatPercent(s.goodputShare, 2),
    budget: () => formatBytesDecimal(budget),
  };
  return (
    <InlineFigure
      value={text[stat]()}
      title={`${PAUSE_POLICY_LABELS[policy]}: arena defaults (${ARENA_DEFAULTS.agents} agents, ${ARENA_DEFAULTS.tool}, seed ${ARENA_DEFAULTS.seed}${policy.startsWith('ttl') ? `, τ = ${ARENA_DEFAULTS.ttlS} s` : ''})`}
    />
  );
}

/** The ratio of one arena figure between two policies (e.g. evict's resume p50 over hold's). */
export function ArenaRatio({
  a,
  b,
  stat,
  as = 'times',
}: {
  a: PausePolicyId;
  b: PausePolicyId;
  stat: 'resumeP50' | 'idleHbm' | 'pcie' | 'pcieUp' | 'pcieDown' | 'throughput';
  /** `times`: "2.3×"; `percent`: "43%". */
  as?: 'times' | 'percent';
}) {
  const sim = useSimulation('pauseArena', ARENA_DEFAULTS);
  const ra = sim.result?.runs.find((r) => r.summary.policy === a)?.summary;
  const rb = sim.result?.runs.find((r) => r.summary.policy === b)?.summary;
  if (!ra || !rb) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const bpb = sim.result!.bytesPerBlock;
  const pick = (s: typeof ra) =>
    stat === 'resumeP50'
      ? s.resumes.ttft.p50
      : stat === 'idleHbm'
        ? idleHbmBytes(s, bpb)
        : stat === 'pcie'
          ? s.pcieUpBytes + s.pcieDownBytes
          : stat === 'pcieUp'
            ? s.pcieUpBytes
            : stat === 'pcieDown'
              ? s.pcieDownBytes
              : s.outputTokensPerS;
  const x = pick(ra) / pick(rb);
  return (
    <InlineFigure
      value={as === 'percent' ? formatPercent(x, 2) : `${formatNumber(x, 2)}×`}
      title={`${PAUSE_POLICY_LABELS[a]} / ${PAUSE_POLICY_LABELS[b]}`}
    />
  );
}

type LabStat =
  | 'context'
  | 'gpus'
  | 'dramGB'
  | 'agents'
  | 'minutes'
  | 'turns'
  | 'sharedTokens'
  | 'systemTokens'
  | 'sloTtft'
  | 'sloTpot'
  | 'ttl';

/** A parameter of the lab setup (src/sim/lessons/pauseLabSetup.ts and the widgets' defaults), so prose and runs agree. */
export function LabFig({ what }: { what: LabStat }) {
  const turns = pauseAgent('coding-mix').turns;
  const text: Record<LabStat, () => string> = {
    context: () => formatNumber(TOOL_DEFAULTS.contextTokens, 6),
    gpus: () => formatNumber(PAUSE_TP),
    dramGB: () => `${formatNumber(PAUSE_DRAM_GB)} GB`,
    agents: () => formatNumber(ARENA_DEFAULTS.agents),
    minutes: () => formatNumber(PAUSE_DURATION_S / 60),
    turns: () => (turns.kind === 'uniform' ? `${turns.min} to ${turns.max}` : '—'),
    sharedTokens: () => formatNumber(PAUSE_SYSTEM_TOKENS + PAUSE_TOOL_TOKENS, 6),
    systemTokens: () => formatNumber(PAUSE_SYSTEM_TOKENS, 6),
    sloTtft: () => formatDuration(PAUSE_SLO.ttftP90S),
    // Goodput counts a request only if it meets both objectives (ArenaReadouts' GOODPUT_RULE).
    sloTpot: () => formatDuration(PAUSE_SLO.tpotP90S),
    ttl: () => formatDuration(ARENA_DEFAULTS.ttlS),
  };
  return <InlineFigure value={text[what]()} title="the lab setup (src/sim/lessons/pauseLabSetup.ts)" />;
}
