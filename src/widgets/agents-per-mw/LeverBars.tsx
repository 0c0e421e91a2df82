/** The lever grid's two bar charts, agents per MW and cost per session: a bar per router in each policy's row. */
import { BarChart, type BarSeries } from '../kit/charts/BarChart';
import type { AxisSpec } from '../kit/charts/types';
import { formatNumber } from '../../lib/format';
import { ECON_POLICIES, ECON_POLICY_SHORT } from '../../sim/lessons/economicsLabSetup';
import { formatUSD, leverBarSeries, type PricedGrid } from './pricedCells';

const CATEGORIES = ECON_POLICIES.map((p) => ECON_POLICY_SHORT[p]);

/** Agents per MW: the lever grid's first chart (on a phone the controls follow it, then the rest). */
export function AgentsPerMwBars({ priced, running }: { priced: PricedGrid; running: boolean }) {
  return (
    <LeverBarChart
      title="Agents per megawatt for each router and idle-KV policy"
      series={leverBarSeries(
        priced,
        running,
        (c) => c.perMW,
        (c) => `≥ ${formatNumber(Math.round(c.perMW), 3)}`,
      )}
      value={{ label: 'Agents per MW', format: (n) => formatNumber(n, 3), zero: true }}
    />
  );
}

/** Cost per session, under agents per MW. */
export function CostBars({ priced, running }: { priced: PricedGrid; running: boolean }) {
  return (
    <LeverBarChart
      title="Cost per session for each router and idle-KV policy"
      series={leverBarSeries(priced, running, (c) => c.cost.totalUSD)}
      value={{ label: '$ per session', format: (n) => formatUSD(n), zero: true }}
    />
  );
}

/** The two charts' shared frame: policies down the side, rows of one height, so a policy lines up across both. */
function LeverBarChart({ title, series, value }: { title: string; series: BarSeries[]; value: AxisSpec }) {
  return (
    <BarChart
      title={title}
      categories={CATEGORIES}
      series={series}
      value={value}
      category={{ label: 'Idle-KV policy' }}
      valueLabels
      orientation="horizontal"
      rowHeight={36}
    />
  );
}
