/** The arena's read-outs for the chosen policy: idle KV in HBM, resume TTFT, where resumes found their context, PCIe, output. */
import { Readout } from '../kit/WidgetFrame';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { formatBytesDecimal, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import type { PauseSummary } from '../../sim/lessons/pauseLab';
import { PAUSE_SLO } from '../../sim/lessons/pauseLabSetup';
import { idleHbmBytes } from './arenaData';

/** What goodput counts: the objectives of the arena's scenario (pauseLab.ts pauseScenario's slo, PAUSE_SLO). */
export const GOODPUT_RULE = `requests with TTFT ≤ ${formatDuration(PAUSE_SLO.ttftP90S)} and TPOT ≤ ${formatDuration(PAUSE_SLO.tpotP90S)}`;

export function ArenaReadouts({
  s,
  bpb,
  budget,
  closedForm,
}: {
  s: PauseSummary;
  /** Bytes per KV block. */
  bpb: number;
  /** The replica's HBM KV budget, bytes. */
  budget: number;
  /** F(τ), the closed-form share of resumes in HBM: for a TTL policy once every run is in, else undefined. */
  closedForm: number | undefined;
}) {
  const pct = (b: number) => (budget > 0 ? formatPercent(b / budget) : '—');
  return (
    <>
      <Readout
        emphasis
        label="Idle sessions’ KV in HBM (time mean)"
        value={
          <span data-readout="idle-hbm" data-value={idleHbmBytes(s, bpb)}>
            {formatBytesDecimal(idleHbmBytes(s, bpb))}
          </span>
        }
        formula={`pinned ${formatBytesDecimal(s.idlePinnedBlocks * bpb)} + cached ${formatBytesDecimal(s.idleCachedBlocks * bpb)} = ${pct(idleHbmBytes(s, bpb))} of the ${formatBytesDecimal(budget)} KV budget`}
      />
      <Readout
        emphasis
        label="Resume TTFT, p50 · p90"
        value={
          <SeparatedFigures
            figures={[
              <span key="p50" data-readout="resume-ttft-p50" data-value={s.resumes.ttft.p50}>
                {formatDuration(s.resumes.ttft.p50)}
              </span>,
              <span key="p90" data-readout="resume-ttft-p90" data-value={s.resumes.ttft.p90}>
                {formatDuration(s.resumes.ttft.p90)}
              </span>,
            ]}
          />
        }
        formula={`${formatNumber(s.resumes.count, 6)} resumes after a tool call; first turns p50 ${formatDuration(s.firstTtftP50)}`}
      />
      <Readout
        label="Resumes that found their whole context in HBM"
        value={
          <span data-readout="arena-in-hbm" data-value={s.resumes.inHbmShare}>
            {formatPercent(s.resumes.inHbmShare)}
          </span>
        }
        formula={
          <>
            context from HBM {formatPercent(s.resumes.source.hbm)}, DRAM{' '}
            {formatPercent(s.resumes.source.dram)}, recomputed {formatPercent(s.resumes.source.recomputed)}
            {closedForm !== undefined ? `; closed form F(τ) = ${formatPercent(closedForm)}` : ''}
          </>
        }
      />
      <Readout
        label="PCIe traffic (reloads up · copies to DRAM down)"
        value={
          <span data-readout="pcie" data-value={s.pcieUpBytes + s.pcieDownBytes}>
            {formatBytesDecimal(s.pcieUpBytes + s.pcieDownBytes)}
          </span>
        }
        formula={`${formatBytesDecimal(s.pcieUpBytes)} up · ${formatBytesDecimal(s.pcieDownBytes)} down in ${formatDuration(s.simulatedS)}, once per block copy`}
      />
      <Readout
        label="Output throughput · goodput"
        value={
          <span>
            <span data-readout="throughput" data-value={s.outputTokensPerS}>
              {formatNumber(s.outputTokensPerS)} tok/s
            </span>{' '}
            · <span data-readout="goodput">{formatPercent(s.goodputShare)}</span>
          </span>
        }
        formula={`goodput: ${GOODPUT_RULE}; ${formatPercent(s.prefilledTokens / s.promptTokens)} of prompt tokens prefilled`}
      />
    </>
  );
}
