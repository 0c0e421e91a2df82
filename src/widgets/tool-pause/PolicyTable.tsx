/** The arena's table: every pause policy on the same workload, idle KV, resumes, PCIe traffic and output. */
import { CompareRow, CompareTable } from '../kit/CompareTable';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { formatBytesDecimal, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import type { PauseRun, PauseSummary } from '../../sim/lessons/pauseLab';
import { PAUSE_POLICIES, PAUSE_POLICY_SHORT, type PausePolicyId } from '../../sim/lessons/pauseLabSetup';
import { idleHbmBytes } from './arenaData';

const COLUMNS = [
  'Policy',
  'Idle KV: HBM · DRAM',
  'Resumes in HBM',
  'Resume TTFT p50 · p90',
  'PCIe traffic',
  'Output · goodput',
];

export function PolicyTable({
  runs,
  bytesPerBlock,
  current,
  ttlS,
}: {
  /** The runs in so far, by policy. */
  runs: ReadonlyMap<PausePolicyId, PauseRun>;
  bytesPerBlock: number;
  current: PausePolicyId;
  /** τ of the TTL policies, named in their rows. */
  ttlS: number;
}) {
  return (
    <CompareTable
      name="policies"
      caption="Every policy on the same workload and seed (time means over the run)."
      columns={COLUMNS}
    >
      {PAUSE_POLICIES.map((p) => {
        const x = runs.get(p)?.summary;
        return (
          <CompareRow
            key={p}
            data-policy={p}
            current={p === current}
            head={
              <>
                {PAUSE_POLICY_SHORT[p]}
                {p.startsWith('ttl') ? ` (τ = ${formatDuration(ttlS, 2)})` : ''}
              </>
            }
            span={COLUMNS.length - 1}
            cells={x ? <PolicyCells x={x} bpb={bytesPerBlock} /> : null}
          />
        );
      })}
    </CompareTable>
  );
}

function PolicyCells({ x, bpb }: { x: PauseSummary; bpb: number }) {
  return (
    <>
      <td data-label="Idle KV: HBM · DRAM">
        <SeparatedFigures
          figures={[formatBytesDecimal(idleHbmBytes(x, bpb)), formatBytesDecimal(x.idleDramBlocks * bpb)]}
        />
      </td>
      <td data-label="Resumes in HBM">{formatPercent(x.resumes.inHbmShare)}</td>
      <td data-label="Resume TTFT p50 · p90">
        <SeparatedFigures
          figures={[formatDuration(x.resumes.ttft.p50), formatDuration(x.resumes.ttft.p90)]}
        />
      </td>
      <td data-label="PCIe traffic" className="nw">
        {formatBytesDecimal(x.pcieUpBytes + x.pcieDownBytes)}
      </td>
      <td data-label="Output · goodput">
        <SeparatedFigures
          figures={[`${formatNumber(x.outputTokensPerS)} tok/s`, formatPercent(x.goodputShare)]}
        />
      </td>
    </>
  );
}
