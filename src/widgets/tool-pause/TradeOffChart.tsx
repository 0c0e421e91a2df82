/** The arena's trade-off: every policy as a point, idle sessions' KV in HBM against resume TTFT p90. */
import { LineChart } from '../kit/charts/LineChart';
import { formatDuration, formatNumber } from '../../lib/format';
import type { PauseRun } from '../../sim/lessons/pauseLab';
import type { PausePolicyId } from '../../sim/lessons/pauseLabSetup';
import { tradeOff } from './arenaData';

export function TradeOffChart({
  ordered,
  bytesPerBlock,
  current,
}: {
  /** The runs in so far, in PAUSE_POLICIES order. */
  ordered: readonly PauseRun[];
  bytesPerBlock: number;
  current: PausePolicyId;
}) {
  const t = tradeOff(ordered, bytesPerBlock, current);
  return (
    <LineChart
      title="Every policy: idle sessions’ KV in HBM against resume TTFT p90"
      description="One point per policy in the policy's colour and symbol, ringed and named beside it: the chosen policy in the text's colour, the others in grey."
      series={t.series}
      x={{
        label: 'Idle sessions’ KV in HBM',
        unit: 'GB',
        domain: [0, t.maxIdleGB * 1.15],
        format: (g) => formatNumber(g),
        zero: true,
      }}
      y={{
        label: 'Resume TTFT p90',
        unit: 's',
        scale: 'log',
        domain: t.yDomain,
        format: (s) => formatDuration(s, 2),
      }}
      markers={t.markers}
      legend={false}
      points
      aspect={0.42}
    />
  );
}
