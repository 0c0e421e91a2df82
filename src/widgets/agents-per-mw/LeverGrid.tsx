/**
 * Lesson 07.12, widget 2: the per-session cost model and its two levers. For every router (round-robin,
 * cache-aware) and idle-KV policy (hold, TTL then offload, evict), the fleet simulator finds the largest
 * concurrency per replica at which a whole node meets both SLOs (bisection, lab runs in src/sim/lessons/economicsLab.ts);
 * the cells stream in, the chosen one first. The money and power arithmetic (src/sim/lessons/economics.ts) runs on
 * the page (pricedCells.ts), so prices and PUE re-price the runs without re-running them. Computed in the worker
 * (leverGrid).
 */
import { useMemo } from 'react';
import { useStreamingSimulation } from '../kit/useSimulation';
import { streamProgress, useCancelToShown } from '../kit/JobProgress';
import { useWidgetParams } from '../kit/useWidgetParams';
import { WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame, streamingFrame } from '../kit/frameProps';
import { TryThis, type TryItem } from '../kit/TryThis';
import { formatDuration, formatPower } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import type { CapacityResult } from '../../sim/lessons/economicsLab';
import {
  DEFAULT_GPU_HOUR_USD,
  ECON_DURATION_S,
  ECON_POLICIES,
  ECON_ROUTERS,
  ECON_TP,
  LEVER_GRID,
  type EconNodeId,
  type EconPolicyId,
  type EconRouterId,
} from '../../sim/lessons/economicsLabSetup';
import type { LeverGridRequest } from '../../worker/economicsMethods';
import { LEVER_GRID_ID, leverGridSchema } from './schema';
import { AgentsPerMwBars, CostBars } from './LeverBars';
import { LeverReadouts } from './LeverReadouts';
import { LeverTable } from './LeverTable';
import { cellKey, leverExportRows, priceGrid, type Prices } from './pricedCells';
import { ECON_MODEL_NAME, TOOL_CLAUSES } from './econSetup';
import './agents-per-mw.css';

// The lesson's figures and exercises and the tests import these from the widget.

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-12-try-this and tests/lesson-07-12 check them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch the router to round-robin: each turn lands on the next replica, which last held the session
        turns ago (or never), so it prefills everything said since; less of the prompt is reused, and agents
        per MW collapse.
      </>
    ),
    set: { router: 'round-robin' },
    highlight: 'lever-agents-per-mw',
  },
  {
    text: (
      <>
        Compare hold with TTL then offload: with the coding-agent mix they sustain the same agents, because
        the SLO binds before memory does, but hold pins several times more of the KV budget (the idle-held
        share of the rent).
      </>
    ),
    set: { policy: 'hold' },
    highlight: 'cost-split',
  },
  {
    text: (
      <>
        Then choose web or API calls: the agents stay level with the TTL’s at these SLOs, and hold pins even
        more of the KV budget through the long pauses.
      </>
    ),
    set: { policy: 'hold', tool: 'web' },
    highlight: 'cost-split',
  },
  {
    text: <>And shell commands: fewer agents fit within the SLOs, and hold pins little more than the TTL.</>,
    set: { policy: 'hold', tool: 'shell' },
    highlight: 'cost-split',
  },
  {
    text: (
      <>
        Double the GPU-hour price: the cost per session almost doubles, since nearly all of it is the
        GPU&apos;s rent.
      </>
    ),
    set: { gpuHourUSD: 2 * DEFAULT_GPU_HOUR_USD },
    highlight: 'cost-per-session',
  },
  {
    text: (
      <>
        Set electricity to $0.30/kWh instead: only the energy part moves, and it stays under a quarter of the
        cost per session: at these prices a GPU&apos;s rent is most of it.
      </>
    ),
    set: { kwhUSD: 0.3 },
    highlight: 'cost-per-session',
  },
];

export function gridArgs(v: {
  node: string;
  tool: string;
  ttftP90S: number;
  tpotP90S: number;
  seed: number;
  router: string;
  policy: string;
}): LeverGridRequest {
  return {
    node: v.node as EconNodeId,
    tool: v.tool as LeverGridRequest['tool'],
    slo: { ttftP90S: v.ttftP90S, tpotP90S: v.tpotP90S },
    seed: v.seed,
    router: v.router as EconRouterId,
    policy: v.policy as EconPolicyId,
  };
}

export function LeverGrid() {
  const params = useWidgetParams(LEVER_GRID_ID, leverGridSchema);
  const v = params.values;
  const args = useMemo(() => gridArgs(v), [v]);
  const sim = useStreamingSimulation('leverGrid', args);
  const final = sim.result && !sim.stale ? sim.result : null;
  const partial = sim.frames;
  const cells: CapacityResult[] = final ? final.cells : partial.length ? partial : (sim.result?.cells ?? []);
  const running = !final;
  // Up to ≈16 s at the controls' maxima under load (docs/reliability.md): the kit's progress line and Cancel.
  const progress = streamProgress(
    sim,
    ECON_ROUTERS.length * ECON_POLICIES.length,
    'Sizing the fleet for each router and policy',
    'settings',
  );
  const cancel = useCancelToShown(params, final !== null);
  const prices: Prices = { gpuHourUSD: v.gpuHourUSD, kwhUSD: v.kwhUSD, pue: v.pue };
  const priced = priceGrid(cells, args.node, prices);
  const sel = priced.get(cellKey(args.router, args.policy)) ?? null;
  const frame = streamingFrame(sim, cells.length > 0, Boolean(sel));
  const node = findNode(args.node)!;
  const capped = cells.some((c) => c.atLeast);
  return (
    <WidgetFrame
      {...frame}
      {...paramsFrame(params)}
      id={LEVER_GRID_ID}
      title="The per-session cost model and its two levers: routing and idle KV"
      progress={progress}
      onCancel={cancel}
      exportData={() => ({ rows: leverExportRows(priced), json: { parameters: v, cells } })}
      readouts={sel ? <LeverReadouts s={sel} node={node} prices={prices} /> : null}
      caption={
        <>
          A {node.name} ({formatPower(node.powerW)}) split into {node.gpuCount / ECON_TP} replicas of{' '}
          {ECON_MODEL_NAME} on {ECON_TP} GPUs behind one router; agents as in the first widget,{' '}
          {TOOL_CLAUSES[args.tool]} between turns. For each lever setting the simulator finds the largest
          concurrency per replica meeting TTFT p90 ≤ {formatDuration(args.slo.ttftP90S, 3)} and TPOT p90 ≤{' '}
          {formatDuration(args.slo.tpotP90S, 3)} ({ECON_DURATION_S / 60} simulated minutes per run); the cost
          is read at that concurrency. “none meets” in place of a bar: not even 1 agent per replica meets the
          SLOs. These are node runs, {node.gpuCount / ECON_TP} replicas sharing their agents behind a router,
          so their GPU-seconds per session differ from the first widget&apos;s single replica even at the same
          policy and concurrency: other sessions finish within the run, and a few turns land away from their
          cache.
          {capped
            ? ` A value marked “≥”: ${LEVER_GRID[LEVER_GRID.length - 1]} agents per replica, the most the search tries, still meets the SLOs, so it is a floor, and the cost read there a ceiling (“≤”).`
            : ''}
          {running
            ? ` Computing: ${cells.length} of ${ECON_ROUTERS.length * ECON_POLICIES.length} settings so far.`
            : ''}
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
      more={
        // Cost per session and the table, under agents per MW; on a phone they follow the controls.
        <div className="apm-charts">
          <CostBars priced={priced} running={running} />
          <LeverTable priced={priced} router={args.router} policy={args.policy} prices={prices} node={node} />
        </div>
      }
    >
      <AgentsPerMwBars priced={priced} running={running} />
    </WidgetFrame>
  );
}
