/** 07.04's second exercise: one context back from host DRAM; the answer comes from the ladder's worker method. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import {
  formatBandwidth,
  formatBytesDecimal,
  formatDuration,
  formatNumber,
  formatRatio,
} from '../../lib/format';
import { PROSE_SETUPS } from './schema';

export function LadderExercise() {
  const sim = useSimulation('memoryLadder', PROSE_SETUPS.ladder);
  const r = sim.result;
  const dram = r?.tiers.find((t) => t.id === 'dram');
  const host = dram?.hops[0];
  return (
    <Exercise
      id="07-04-reload-from-dram"
      question={
        <p>
          An agent&apos;s 100,000-token Llama 3.1 70B context (BF16 KV) waits in the host DRAM of a DGX H100
          during a tool call. Each of the eight GPUs reads its share over its own PCIe Gen5 x16 link at the
          measured 50 GB/s, with a fixed 10 µs per transfer. How many milliseconds does the whole context take
          to come back to HBM?
        </p>
      }
      answer={dram ? dram.reloadS * 1e3 : null}
      tolerance={0.05}
      unit="ms"
      hint={
        <p>
          The context is 100,000 tokens × 327,680 bytes. The eight links work in parallel, so the bandwidth is
          8 × 50 GB/s. Time = latency + bytes / bandwidth.
        </p>
      }
      explanation={
        r && dram && host ? (
          <p>
            {formatBytesDecimal(r.contextBytes)} over {host.count} × {formatBandwidth(host.perLinkBandwidth)}{' '}
            = {formatBandwidth(dram.bandwidth)} takes {formatDuration(dram.reloadS - dram.latency)}, plus{' '}
            {formatDuration(dram.latency)}: {formatNumber(dram.reloadS * 1e3)} ms. Prefilling the same context
            again would take {formatDuration(r.recomputeS)}, {formatRatio(dram.speedupOverRecompute, 2)}{' '}
            longer. Through a single GPU&apos;s link it would take{' '}
            {formatDuration(dram.latency + r.contextBytes / host.perLinkBandwidth)}: striping the KV over
            every GPU&apos;s link is what makes host DRAM fast.
          </p>
        ) : null
      }
    />
  );
}
