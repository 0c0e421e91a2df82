/**
 * The charts that stack panels over one time or turn axis (07.02's trajectory, 07.06's KV occupancy, 07.10's
 * iteration timeline), drawn from the core's results at the widgets' default settings and snapshot-tested as SVG,
 * with the layout rules they share: panels in order, none overlapping, each title above its panel.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { PANEL_TITLE_BAND, stackPanels } from '../../src/widgets/kit/charts/panels';
import { defaultValues } from '../../src/state/paramSchema';
import { methods } from '../../src/worker/methods';
import { affinityReplayArgs, affinityReplaySchema } from '../../src/widgets/session-affinity/schema';
import { timelineArgs, timelineSchema, chunkLabel } from '../../src/widgets/long-prefill/schema';
import { extraLabelRow, TrajectoryChart } from '../../src/widgets/session-affinity/TrajectoryChart';
import { OccupancyChart } from '../../src/widgets/tool-pause/OccupancyChart';
import { TimelineChart } from '../../src/widgets/long-prefill/TimelineChart';
import { runPausePolicy } from '../../src/sim/lessons/pauseLab';
import { isCannotRun, type CannotRun } from '../../src/sim/engine/cannotRun';
import { noBadNumbers, pretty, render } from './helpers';

function ran<T>(x: T | CannotRun): T {
  if (isCannotRun(x)) throw new Error(`cannot run: ${x.reason}`);
  return x;
}

/** The y of each `translate(0,y)` group directly in the plot: the panels' tops, in drawing order. */
function panelTops(markup: string): number[] {
  return [...markup.matchAll(/<g transform="translate\(0,([\d.]+)\)"/g)].map((m) => Number(m[1]));
}

/** 07.02's trajectory chart at the replay widget's defaults, as SVG markup. */
async function trajectoryMarkup(): Promise<string> {
  const r = ran(await methods.affinityReplay(affinityReplayArgs(defaultValues(affinityReplaySchema))));
  return render(
    <TrajectoryChart
      run={r.request}
      compare={r.affinity}
      compareLabel="session affinity"
      replicas={r.replicas}
      current={3}
      title="Trajectory"
    />,
  );
}

describe("07.02's extra-TTFT labels", () => {
  it('one row when they fit a turn, two staggered rows when they fit two, else only the ones that must show', () => {
    expect([1, 2, 3].map((t) => extraLabelRow(40, 50, t, false))).toEqual([0, 0, 0]);
    // neighbours alternate rows, so two adjacent labels never share one
    expect([1, 2, 3, 4].map((t) => extraLabelRow(60, 50, t, false))).toEqual([1, 0, 1, 0]);
    expect(extraLabelRow(120, 50, 3, false)).toBeNull();
    expect(extraLabelRow(120, 50, 3, true)).toBe(0);
  });
});

describe('stacked-panel charts', () => {
  it("07.02's trajectory: the route over the prompt bars", async () => {
    const html = await trajectoryMarkup();
    noBadNumbers(html);
    const tops = panelTops(html);
    expect(tops.length).toBeGreaterThanOrEqual(2);
    expect(tops[1]).toBeGreaterThan(tops[0]);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/panels-trajectory.svg');
  });

  describe("07.02's trajectory in a short window", () => {
    afterEach(() => vi.unstubAllGlobals());
    const drawIn = async (innerHeight: number) => {
      vi.stubGlobal('window', {
        innerWidth: 1280,
        innerHeight,
        addEventListener() {},
        removeEventListener() {},
      });
      const html = await trajectoryMarkup();
      const height = Number(/<svg[^>]* height="(\d+)"/.exec(html)![1]);
      const tops = panelTops(html);
      return { height, promptPanel: height - tops[1] };
    };
    it('gives up prompt-panel height to stay within 55% of the window, never under 120 units', async () => {
      const tall = await drawIn(1080);
      const short = await drawIn(720);
      expect(tall.height).toBe(421); // its natural height: the window does not bind
      expect(short.height).toBeLessThanOrEqual(0.55 * 720);
      expect(short.height).toBeLessThan(tall.height);
      // At 640 units wide the prompt panel's natural height is 192 (30% of the width); the rest is the x axis.
      const axisBand = tall.promptPanel - 192;
      const tiny = await drawIn(400);
      expect(tiny.promptPanel - axisBand).toBe(120);
      expect(tiny.height).toBeGreaterThan(0.55 * 400);
    });
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
    const r = ran(methods.prefillTimelineRun(timelineArgs(defaultValues(timelineSchema))));
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
    // The tallest iteration stops below the rules' labels (drawn at y = 10 from the tokens panel's top).
    const barTops = [...html.matchAll(/data-kind="(?:chunk|decode)"><rect[^>]* y="([\d.]+)"/g)].map(
      (m) => +m[1],
    );
    expect(barTops.length).toBeGreaterThan(100);
    expect(Math.min(...barTops)).toBeGreaterThanOrEqual(14);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/panels-timeline.svg');
  });
});

describe('stackPanels', () => {
  it('puts each panel below its title line and the gap above it', () => {
    const s = stackPanels(30, [{ height: 80 }, { height: 18, gapAbove: 8 }, { height: 100, gapAbove: 4 }]);
    expect(s.tops).toEqual([
      30 + PANEL_TITLE_BAND,
      30 + 2 * PANEL_TITLE_BAND + 80 + 8,
      30 + 3 * PANEL_TITLE_BAND + 80 + 8 + 18 + 4,
    ]);
    expect(s.heights).toEqual([80, 18, 100]);
    expect(s.bottom).toBe(s.tops[2] + 100);
    expect(s.span).toBe(s.bottom - s.tops[0]);
  });

  it('shares what fixed panels, titles and gaps leave of the room, to the unit', () => {
    const s = stackPanels(
      0,
      [{ share: 0.48 }, { height: 18, gapAbove: 8 }, { share: 0.52, gapAbove: 4 }],
      400,
    );
    const free = 400 - 3 * PANEL_TITLE_BAND - 18 - 8 - 4;
    expect(s.heights[0]).toBe(Math.round(free * 0.48));
    expect(s.heights[0] + s.heights[2]).toBe(free);
    expect(s.bottom).toBe(400);
  });

  it('never draws a shared panel below its minimum height, however little room there is', () => {
    const s = stackPanels(0, [{ share: 1 }, { share: 1, gapAbove: 30 }], 50, 40);
    expect(s.heights).toEqual([40, 40]);
  });

  it('keeps panels in order and apart, and fills the room when it is enough (property)', () => {
    const spec = fc.record({
      height: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
      share: fc.double({ min: 0.1, max: 3, noNaN: true }),
      gapAbove: fc.integer({ min: 0, max: 40 }),
    });
    fc.assert(
      fc.property(
        fc.array(spec, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 2000 }),
        (panels, room) => {
          const s = stackPanels(10, panels, room);
          for (let i = 1; i < panels.length; i++)
            expect(s.tops[i]).toBe(s.tops[i - 1] + s.heights[i - 1] + panels[i].gapAbove + PANEL_TITLE_BAND);
          expect(s.bottom).toBe(s.tops[panels.length - 1] + s.heights[panels.length - 1]);
          panels.forEach((p, i) => {
            if (p.height !== undefined) expect(s.heights[i]).toBe(p.height);
            else expect(s.heights[i]).toBeGreaterThanOrEqual(40);
          });
          // Shared panels none of which was raised to the minimum take exactly the room.
          const shared = panels.some((p) => p.height === undefined);
          if (shared && s.heights.every((h, i) => panels[i].height !== undefined || h > 40))
            expect(s.bottom).toBe(10 + room);
        },
      ),
    );
  });
});
