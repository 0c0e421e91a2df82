/**
 * Inline figures for lesson 07.10's prose, computed in the worker by the same core as its widgets (prefillFigures
 * for the lesson's setup, schema.ts FIGURES_REQUEST, which is the widgets' default), so prose and widgets never
 * disagree; and the table of the four prefill scenarios shipped with the fleet simulator (prefillScenarios).
 */
import { CompareRow, CompareTable } from '../kit/CompareTable';
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import {
  formatBandwidth,
  formatBytes,
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import type { ChunkFigures, PrefillFiguresResponse } from '../../worker/prefillFigureMethods';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import { findModel } from '../../sim/engine/catalog/models';
import { allReduceMessageBytes, allReducePath, allReduceTime } from '../../sim/engine/tensorParallel';
import type { PrefillScenarioId } from '../../worker/prefillScenarioMethods';
import './long-prefill.css';
import { FIGURES_REQUEST } from './schema';

const SETUP_TITLE = `${FIGURES_REQUEST.modelId} on ${FIGURES_REQUEST.gpus} × ${FIGURES_REQUEST.acceleratorId}, ${FIGURES_REQUEST.decodes} sessions decoding at ${FIGURES_REQUEST.decodeContext} tokens, a ${FIGURES_REQUEST.promptTokens}-token prompt (the cost model's fitted efficiencies, all-reduce and overhead)`;

const METRICS = {
  wholeS: (f: PrefillFiguresResponse) => formatDuration(f.wholeS),
  wholeMemoryS: (f: PrefillFiguresResponse) => formatDuration(f.wholeMemoryS),
  wholeAttentionShare: (f: PrefillFiguresResponse) => formatPercent(f.wholeAttentionShare),
  decodeStepS: (f: PrefillFiguresResponse) => formatDuration(f.decodeStepS),
  decodeComputeS: (f: PrefillFiguresResponse) => formatDuration(f.decodeComputeS),
  decodeRideS: (f: PrefillFiguresResponse) => formatDuration(f.decodeRideS),
  iterationFixedS: (f: PrefillFiguresResponse) => formatDuration(f.iterationFixedS),
  GA: (f: PrefillFiguresResponse) => formatFlops(f.formula.attentionFlops, true),
  gemmEff: (f: PrefillFiguresResponse) => formatPercent(f.formula.gemmEfficiency),
  attnEff: (f: PrefillFiguresResponse) => formatPercent(f.formula.attentionEfficiency),
  overhead: (f: PrefillFiguresResponse) => formatDuration(f.formula.iterationOverheadS),
  arPerToken: (f: PrefillFiguresResponse) => formatDuration(f.formula.allReducePerTokenS),
  arFixed: (f: PrefillFiguresResponse) => formatDuration(f.formula.allReduceFixedS),
  arBandwidth: (f: PrefillFiguresResponse) => formatBandwidth(f.formula.allReduceBusBandwidth),
  /** MBU: the share of HBM bandwidth a pass achieves in the cost model (the recap's roofline). */
  mbu: (f: PrefillFiguresResponse) => formatPercent(f.formula.mbu),
  wholeAllReduceS: (f: PrefillFiguresResponse) => formatDuration(f.wholeAllReduceS),
  stepsLost: (f: PrefillFiguresResponse) => formatNumber(Math.round(f.stepsLost)),
  bodyFlops: (f: PrefillFiguresResponse) => formatFlops(f.formula.bodyFlopsPerToken),
  attnPair: (f: PrefillFiguresResponse) => formatFlops(f.formula.attentionFlopsPerPair),
  G: (f: PrefillFiguresResponse) => formatFlops(f.formula.effectiveFlops, true),
  M: (f: PrefillFiguresResponse) => formatBandwidth(f.formula.effectiveBandwidth),
  weights: (f: PrefillFiguresResponse) => formatBytesDecimal(f.formula.weightBytesStreamed),
  kvPerToken: (f: PrefillFiguresResponse) => formatBytes(f.formula.kvBytesPerToken),
  memoryBoundStart: (f: PrefillFiguresResponse) => formatTokens(f.memoryBoundAt.start),
  memoryBoundMiddle: (f: PrefillFiguresResponse) => formatTokens(f.memoryBoundAt.middle),
  memoryBoundEnd: (f: PrefillFiguresResponse) => formatTokens(f.memoryBoundAt.end),
  turnFromS: (f: PrefillFiguresResponse) => formatDuration(f.turn.fromStandard.timeS),
  turnFastS: (f: PrefillFiguresResponse) => formatDuration(f.turn.fromFaster.timeS),
  turnToS: (f: PrefillFiguresResponse) => formatDuration(f.turn.toStandard.timeS),
  turnFreeS: (f: PrefillFiguresResponse) => formatDuration(f.turn.fromFreeS),
  turnShare: (f: PrefillFiguresResponse) => formatPercent(f.turn.fromStandard.attentionShare),
  turnLinearS: (f: PrefillFiguresResponse) => formatDuration(f.turn.fromStandard.linearS),
  turnAttentionS: (f: PrefillFiguresResponse) => formatDuration(f.turn.fromStandard.attentionS),
  turnHitSaving: (f: PrefillFiguresResponse) =>
    formatDuration(f.turn.fromStandard.timeS - f.turn.toStandard.timeS),
  turnKernelSaving: (f: PrefillFiguresResponse) =>
    formatDuration(f.turn.fromStandard.timeS - f.turn.fromFaster.timeS),
  turnMatch: (f: PrefillFiguresResponse) => formatRatio(f.turn.speedupToMatch, 2),
  turnEquivalent: (f: PrefillFiguresResponse) => formatPercent(f.turn.hitEquivalent, 3),
} as const;

export type PrefillMetric = keyof typeof METRICS;
export const PREFILL_METRIC_KEYS = Object.keys(METRICS) as PrefillMetric[];
export const formatPrefillMetric = (m: PrefillMetric, f: PrefillFiguresResponse) => METRICS[m](f);

/** A figure of the lesson's setup, e.g. the whole prompt's prefill time. */
export function PrefillFig({ m }: { m: PrefillMetric }) {
  const sim = useSimulation('prefillFigures', FIGURES_REQUEST);
  const f = sim.result;
  return <InlineFigure value={f ? METRICS[m](f) : null} title={SETUP_TITLE} />;
}

/** TTFT chunked − TTFT whole − ride − the extra iterations' fixed costs − the memory-bound excess. */
export const chunkingRestS = (c: ChunkFigures, f: PrefillFiguresResponse) =>
  c.ttftS - f.wholeS - c.breakdown.rideS - (c.breakdown.fixedS - f.iterationFixedS) - c.breakdown.memoryS;

const CHUNK_METRICS = {
  ttft: (c: ChunkFigures) => formatDuration(c.ttftS),
  ttftExtra: (c: ChunkFigures, f: PrefillFiguresResponse) => formatDuration(c.ttftS - f.wholeS),
  /** How many times shorter the longest gap is than the whole-prompt stall (prefill plus the decode step after). */
  stallRatio: (c: ChunkFigures, f: PrefillFiguresResponse) =>
    formatNumber(Math.round((f.wholeS + f.decodeStepS) / c.gapMaxS)),
  gapMax: (c: ChunkFigures) => formatDuration(c.gapMaxS),
  gapP99: (c: ChunkFigures) => formatDuration(c.gapP99S),
  iterations: (c: ChunkFigures) => formatNumber(c.prefillIterations),
  memoryIterations: (c: ChunkFigures) => formatNumber(c.memoryBoundIterations),
  ride: (c: ChunkFigures) => formatDuration(c.breakdown.rideS),
  /** The fixed costs of the iterations beyond the first ((P/n − 1) t_fix): what they add over the whole prompt's one. */
  fixed: (c: ChunkFigures, f: PrefillFiguresResponse) =>
    formatDuration(c.breakdown.fixedS - f.iterationFixedS),
  memory: (c: ChunkFigures) => formatDuration(c.breakdown.memoryS),
  /**
   * What chunking adds beyond the decodes riding along, the extra iterations' fixed costs and the memory-bound
   * excess: the LM head, which every chunk runs once (the breakdown counts it as the prompt's own work).
   */
  rest: (c: ChunkFigures, f: PrefillFiguresResponse) => formatDuration(chunkingRestS(c, f)),
  firstChunk: (c: ChunkFigures) => formatDuration(c.firstChunkS),
  longestCached: (c: ChunkFigures) => formatNumber(c.longest.cached),
  longestTokens: (c: ChunkFigures) => formatNumber(c.longest.tokens),
} as const;

export type ChunkMetric = keyof typeof CHUNK_METRICS;
export const CHUNK_METRIC_KEYS = Object.keys(CHUNK_METRICS) as ChunkMetric[];
export const formatChunkMetric = (m: ChunkMetric, c: ChunkFigures, f: PrefillFiguresResponse) =>
  CHUNK_METRICS[m](c, f);

/** A figure of the lesson's setup prefilled in chunks of `chunk` tokens (one of schema.ts PROSE_CHUNKS). */
export function ChunkFig({ chunk, m }: { chunk: number; m: ChunkMetric }) {
  const sim = useSimulation('prefillFigures', FIGURES_REQUEST);
  const f = sim.result;
  const c = f?.chunks.find((x) => x.chunk === chunk);
  if (f && !c) return <span className="figure-missing">[chunk {chunk} is not among the prose chunks]</span>;
  return (
    <InlineFigure
      value={f && c ? CHUNK_METRICS[m](c, f) : null}
      title={`${SETUP_TITLE}, ${chunk}-token chunks`}
    />
  );
}

/**
 * One tensor-parallel all-reduce of the cost model (src/sim/engine/tensorParallel.ts, NCCL's ring fitted to Vidur)
 * for an iteration of `tokens` tokens of `model` over `gpus` H100s: its message (binary units, as SGLang's
 * microbenchmarks size theirs, or decimal) or its time. Synchronous: one closed-form ring, no simulation. For the
 * prose that sets the model's all-reduce against measured ones, so its side of the comparison is computed.
 */
export function AllReduceFig({
  model,
  gpus,
  tokens,
  m,
}: {
  model: string;
  gpus: number;
  tokens: number;
  m: 'time' | 'bytes' | 'bytesDecimal';
}) {
  const spec = findModel(model);
  const accelerator = findAccelerator(FIGURES_REQUEST.acceleratorId);
  if (!spec || !accelerator) return <InlineFigure value={null} failed />;
  const bytes = allReduceMessageBytes(spec, tokens);
  const value =
    m === 'bytes'
      ? formatBytes(bytes)
      : m === 'bytesDecimal'
        ? formatBytesDecimal(bytes, 2)
        : formatDuration(allReduceTime(allReducePath(accelerator, gpus), gpus, bytes), 2);
  return (
    <InlineFigure
      value={value}
      title={`The cost model's ring all-reduce: ${spec.name}, ${tokens} tokens, ${gpus} × ${accelerator.name}`}
    />
  );
}

/** The prefill scenarios of scenarios/prefill/ the table runs, in its order. */
const SCENARIO_IDS: PrefillScenarioId[] = ['no-chunking', 'chunk-2048', 'chunk-512', 'disaggregated'];

const SCENARIO_COLUMNS = [
  'Scenario',
  'Token budget',
  'Gap p50',
  'Gap p99',
  'Gap max',
  'Chat TTFT p90',
  'Document TTFT, mean',
  'Chat TPOT p90',
  'GPUs',
];

/** The prefill scenarios of scenarios/prefill/ run by the fleet simulator, as a table. */
export function PrefillScenarioTable() {
  const sim = useSimulation('prefillScenarios', { ids: SCENARIO_IDS });
  const r = sim.result;
  return (
    <figure className="table-figure" data-figure="prefill-scenarios" data-state={sim.status}>
      <figcaption>
        {r
          ? `The fleet simulator on the four scenarios in scenarios/prefill/ (docs/scenarios.md): ${r.model} on ${r.accelerator}, one replica (two in the disaggregated run: a prefill and a decode replica), chat sessions arriving for ${formatNumber(r.durationS)} s and now and then a ${formatCount(100_000)}-token document. Gaps are every decode token's; TTFTs and TPOTs per class.`
          : sim.status === 'error'
            ? `The scenarios could not be run: ${sim.error ?? ''}`
            : 'Running the four prefill scenarios in the fleet simulator…'}
      </figcaption>
      <CompareTable columns={SCENARIO_COLUMNS}>
        {r?.rows.map((row) => (
          <CompareRow
            key={row.id}
            data-scenario={row.id}
            head={<code>{row.id}</code>}
            span={SCENARIO_COLUMNS.length - 1}
            cells={
              <>
                <td data-label="Token budget">
                  {formatNumber(row.tokenBudget)}
                  {row.chunk === false ? ', whole prompts' : `, chunk ${formatNumber(row.chunk)}`}
                  {row.prefillUtilisation !== undefined ? ', prefill on its own replica' : ''}
                </td>
                <td data-label="Gap p50">{formatDuration(row.gap.p50)}</td>
                <td data-label="Gap p99" data-cell="gap-p99">
                  {formatDuration(row.gap.p99)}
                </td>
                <td data-label="Gap max" data-cell="gap-max">
                  {formatDuration(row.gap.max)}
                </td>
                <td data-label="Chat TTFT p90">{formatDuration(row.chatTtft.p90)}</td>
                <td data-label="Document TTFT, mean">{formatDuration(row.docTtft.mean)}</td>
                <td data-label="Chat TPOT p90" data-cell="chat-tpot">
                  {formatDuration(row.chatTpotP90)}
                </td>
                <td data-label="GPUs">
                  {formatNumber(row.gpus)}
                  {row.prefillUtilisation !== undefined
                    ? ` (prefill busy ${formatPercent(row.prefillUtilisation)})`
                    : ''}
                </td>
              </>
            }
          />
        ))}
      </CompareTable>
    </figure>
  );
}

/** One cell of the scenario table, for the prose around it. */
export function ScenarioFig({
  id,
  m,
}: {
  id: PrefillScenarioId;
  m:
    | 'gapP99'
    | 'gapMax'
    | 'chatTtftP90'
    | 'docTtft'
    | 'gapCount'
    | 'docCount'
    | 'chatTpotP90'
    | 'prefillUtilisation'
    | 'transferMax';
}) {
  const sim = useSimulation('prefillScenarios', { ids: SCENARIO_IDS });
  const row = sim.result?.rows.find((x) => x.id === id);
  if (!row) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const value =
    m === 'gapP99'
      ? formatDuration(row.gap.p99)
      : m === 'gapMax'
        ? formatDuration(row.gap.max)
        : m === 'chatTtftP90'
          ? formatDuration(row.chatTtft.p90)
          : m === 'docTtft'
            ? formatDuration(row.docTtft.mean)
            : m === 'docCount'
              ? formatNumber(row.docTtft.count)
              : m === 'chatTpotP90'
                ? formatDuration(row.chatTpotP90)
                : m === 'prefillUtilisation'
                  ? formatPercent(row.prefillUtilisation ?? NaN)
                  : m === 'transferMax'
                    ? formatDuration(row.transferMaxS ?? NaN)
                    : formatNumber(row.gap.count);
  return <InlineFigure value={value} title={`fleet simulator, ${row.file}`} />;
}
