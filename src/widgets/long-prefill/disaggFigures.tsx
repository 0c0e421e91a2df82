/**
 * Lesson 07.10's comparison of chunked and disaggregated prefill (src/sim/lessons/longPrefillDisagg.ts, computed in
 * the worker for schema.ts DISAGG_REQUEST): inline figures for the prose and a table of both sides.
 */
import { CompareRow, CompareTable } from '../kit/CompareTable';
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import {
  formatBytesDecimal,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../../lib/format';
import type { DisaggComparison } from '../../sim/lessons/longPrefillDisagg';
import type { PrefillDisaggResponse } from '../../worker/prefillDisaggMethods';
import './long-prefill.css';
import { DISAGG_REQUEST } from './schema';

const SETUP_TITLE = `${DISAGG_REQUEST.modelId} on ${DISAGG_REQUEST.gpus} × ${DISAGG_REQUEST.acceleratorId}, ${DISAGG_REQUEST.decodes} sessions decoding at ${DISAGG_REQUEST.decodeContext} tokens, a ${DISAGG_REQUEST.promptTokens}-token prompt`;
const TITLE = `${SETUP_TITLE}; KV over ${DISAGG_REQUEST.fast.nics} × ${DISAGG_REQUEST.fast.linkId}`;
const SLOW_TITLE = `${SETUP_TITLE}; KV over ${DISAGG_REQUEST.slow.nics} × ${DISAGG_REQUEST.slow.linkId}`;

const METRICS = {
  chunkTtft: (c: DisaggComparison) => formatDuration(c.chunked.ttftS),
  chunkGapMax: (c: DisaggComparison) => formatDuration(c.chunked.gapMaxS),
  chunkGapMean: (c: DisaggComparison) => formatDuration(c.chunked.gapMeanS),
  chunkInflation: (c: DisaggComparison) => formatRatio(c.chunked.tpotInflation, 2),
  chunkLost: (c: DisaggComparison) => formatDuration(c.chunked.lostPerStreamS),
  chunkTokensLost: (c: DisaggComparison) => formatNumber(Math.round(c.chunked.tokensLostPerStream)),
  decodeStep: (c: DisaggComparison) => formatDuration(c.decodeStepS),
  prefill: (c: DisaggComparison) => formatDuration(c.disagg.prefillS),
  bytes: (c: DisaggComparison) => formatBytesDecimal(c.disagg.bytes),
  blocks: (c: DisaggComparison) => formatNumber(c.disagg.blocks),
  link: (c: DisaggComparison) => c.disagg.linkName,
  wire: (c: DisaggComparison) => formatDuration(c.disagg.wireS),
  wireShare: (c: DisaggComparison) => formatPercent(c.disagg.wireS / c.disagg.prefillS),
  layerwise: (c: DisaggComparison) => formatDuration(c.disagg.layerwiseS),
  firstStep: (c: DisaggComparison) => formatDuration(c.disagg.firstStepS),
  ttft: (c: DisaggComparison) => formatDuration(c.disagg.ttftAfterPrefillS),
  ttftLayerwise: (c: DisaggComparison) => formatDuration(c.disagg.ttftLayerwiseS),
  gapMax: (c: DisaggComparison) => formatDuration(c.disagg.gapMaxS),
  capacityPerMinute: (c: DisaggComparison) => formatNumber(c.disagg.capacityPerS * 60, 2),
  utilisation: (c: DisaggComparison) => formatPercent(c.disagg.utilisationPerDecodeReplica),
  decodePerPrefill: (c: DisaggComparison) => formatNumber(c.disagg.decodeReplicasPerPrefill),
  ttftSaved: (c: DisaggComparison) => formatDuration(c.chunked.ttftS - c.disagg.ttftAfterPrefillS),
} as const;

export type DisaggMetric = keyof typeof METRICS;
export const DISAGG_METRIC_KEYS = Object.keys(METRICS) as DisaggMetric[];

function pick(r: PrefillDisaggResponse, chunk: number | 'slow'): DisaggComparison | undefined {
  return chunk === 'slow' ? r.slow : r.byChunk.find((x) => x.chunk === chunk)?.result;
}

export const formatDisaggMetric = (m: DisaggMetric, r: PrefillDisaggResponse, chunk: number | 'slow') => {
  const c = pick(r, chunk);
  return c ? METRICS[m](c) : null;
};

/** A figure of the comparison: `chunk` picks the chunked side (512 or 2,048), 'slow' the TCP link. */
export function DisaggFig({ m, chunk = 512 }: { m: DisaggMetric; chunk?: number | 'slow' }) {
  const sim = useSimulation('prefillDisagg', DISAGG_REQUEST);
  const v = sim.result ? formatDisaggMetric(m, sim.result, chunk) : null;
  if (sim.result && v === null)
    return <span className="figure-missing">[no comparison for {String(chunk)}]</span>;
  if (v === null) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  return <InlineFigure value={v} title={chunk === 'slow' ? SLOW_TITLE : TITLE} />;
}

const COMPARISON_COLUMNS = [
  'How',
  'Prompt TTFT',
  'Transfer after prefill',
  "Decodes' gap, mean",
  "Decodes' gap, max",
  'GPUs',
];

/** Both ways of serving the long prompt beside the decodes, as a table. */
export function DisaggComparisonTable() {
  const sim = useSimulation('prefillDisagg', DISAGG_REQUEST);
  const r = sim.result;
  const rows = r
    ? [
        ...r.byChunk.map((x) => ({
          key: `chunk-${x.chunk}`,
          label: `Chunked, ${formatNumber(x.chunk)}-token chunks`,
          ttft: x.result.chunked.ttftS,
          gapMax: x.result.chunked.gapMaxS,
          gapMean: x.result.chunked.gapMeanS,
          transfer: NaN,
          gpus: DISAGG_REQUEST.gpus,
        })),
        ...[
          { c: r.byChunk[0].result, name: r.byChunk[0].result.disagg.linkName, key: 'fast' },
          { c: r.slow, name: r.slow.disagg.linkName, key: 'slow' },
        ].flatMap(({ c, name, key }) => [
          {
            key: `disagg-${key}`,
            label: `Disaggregated, KV after the prefill over ${name}`,
            ttft: c.disagg.ttftAfterPrefillS,
            gapMax: c.disagg.gapMaxS,
            gapMean: c.decodeStepS,
            transfer: c.disagg.afterPrefillS,
            gpus: 2 * DISAGG_REQUEST.gpus,
          },
          {
            key: `layerwise-${key}`,
            label: `Disaggregated, KV layer by layer over ${name}`,
            ttft: c.disagg.ttftLayerwiseS,
            gapMax: c.disagg.gapMaxS,
            gapMean: c.decodeStepS,
            transfer: c.disagg.layerwiseS,
            gpus: 2 * DISAGG_REQUEST.gpus,
          },
        ]),
      ]
    : [];
  return (
    <figure className="table-figure" data-figure="disagg-comparison" data-state={sim.status}>
      <figcaption>
        {r
          ? `One ${formatNumber(DISAGG_REQUEST.promptTokens)}-token prompt arriving at a ${r.modelName} replica on ${DISAGG_REQUEST.gpus} × ${r.acceleratorName} that is decoding ${DISAGG_REQUEST.decodes} sessions at ${formatNumber(DISAGG_REQUEST.decodeContext)} tokens: chunked on that replica, or prefilled on a second replica of the same hardware and its KV (${formatBytesDecimal(r.slow.disagg.bytes)}) shipped to the first. The decodes' gaps are during the prefill; "transfer" is what it adds to TTFT after the prefill.`
          : sim.status === 'error'
            ? `The comparison could not be computed: ${sim.error ?? ''}`
            : 'Computing the comparison…'}
      </figcaption>
      <CompareTable columns={COMPARISON_COLUMNS}>
        {rows.map((row) => (
          <CompareRow
            key={row.key}
            data-row={row.key}
            head={row.label}
            span={COMPARISON_COLUMNS.length - 1}
            cells={
              <>
                <td data-label="Prompt TTFT" data-cell="ttft">
                  {formatDuration(row.ttft)}
                </td>
                <td data-label="Transfer after prefill">
                  {Number.isNaN(row.transfer) ? 'none' : formatDuration(row.transfer)}
                </td>
                <td data-label="Decodes' gap, mean">{formatDuration(row.gapMean)}</td>
                <td data-label="Decodes' gap, max" data-cell="gap-max">
                  {formatDuration(row.gapMax)}
                </td>
                <td data-label="GPUs">{formatNumber(row.gpus)}</td>
              </>
            }
          />
        ))}
      </CompareTable>
    </figure>
  );
}
