/**
 * The charts that stack panels over one time or turn axis (07.02's trajectory, 07.06's KV occupancy, 07.10's
 * iteration timeline), drawn from the core's results at the widgets' default settings and snapshot-tested as SVG,
 * with the layout rules they share: panels in order, none overlapping, each title above its panel.
 */
import { describe, expect, it } from 'vitest';
import { defaultValues } from '../../src/state/paramSchema';
import { directContext } from '../../src/worker/job';
import { methods } from '../../src/worker/methods';
import { affinityReplayArgs, affinityReplaySchema } from '../../src/widgets/session-affinity/schema';
import { timelineArgs, timelineSchema, chunkLabel } from '../../src/widgets/long-prefill/schema';
import { TrajectoryChart } from '../../src/widgets/session-affinity/TrajectoryChart';
import { OccupancyChart } from '../../src/widgets/tool-pause/OccupancyChart';
import { TimelineChart } from '../../src/widgets/long-prefill/TimelineChart';
import { runPausePolicy } from '../../src/sim/lessons/pauseLab';
import { noBadNumbers, pretty, render } from './helpers';

/** The y of each `translate(0,y)` group directly in the plot: the panels' tops, in drawing order. */
function panelTops(markup: string): number[] {
  return [...markup.matchAll(/<g transform="translate\(0,([\d.]+)\)"/g)].map((m) => Number(m[1]));
}

describe('stacked-panel charts', () => {
  it("07.02's trajectory: the route over the prompt bars", async () => {
    const r = await methods.affinityReplay(
      affinityReplayArgs(defaultValues(affinityReplaySchema)),
      directContext(),
    );
    const html = render(
      <TrajectoryChart
        run={r.request}
        compare={r.affinity}
        compareLabel="session affinity"
        replicas={r.replicas}
        current={3}
        title="Trajectory"
      />,
    );
    noBadNumbers(html);
    const tops = panelTops(html);
    expect(tops.length).toBeGreaterThanOrEqual(2);
    expect(tops[1]).toBeGreaterThan(tops[0]);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/panels-trajectory.svg');
  });

  it("07.06's occupancy: HBM over host DRAM", async () => {
    const run = await runPausePolicy('hold', { ttlS: 2, tool: 'coding-mix', agents: 8, seed: 1 });
    const html = render(
      <OccupancyChart
        track={run.track}
        bytesPerBlock={run.bytesPerBlock}
        capacityBlocks={run.hbmCapacityBlocks}
        title="Occupancy"
      />,
    );
    noBadNumbers(html);
    const tops = panelTops(html);
    expect(tops.length).toBeGreaterThanOrEqual(2);
    expect(tops[1]).toBeGreaterThan(tops[0]);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/panels-occupancy.svg');
  });

  it("07.10's timeline: tokens per iteration, the decode lane, the gaps", async () => {
    const r = methods.prefillTimelineRun(timelineArgs(defaultValues(timelineSchema)));
    const html = render(
      <TimelineChart
        run={r.run}
        whole={r.run.chunk !== false ? r.whole : null}
        runLabel={chunkLabel(r.run.chunk)}
        t={r.run.endS / 2}
        title="Timeline"
      />,
    );
    noBadNumbers(html);
    const tops = panelTops(html);
    expect(tops.length).toBeGreaterThanOrEqual(3);
    expect(tops[1]).toBeGreaterThan(tops[0]);
    expect(tops[2]).toBeGreaterThan(tops[1]);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/panels-timeline.svg');
  });
});
