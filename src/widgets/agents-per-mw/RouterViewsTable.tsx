/**
 * What the router knows, as a table (lesson 07.12): round-robin, llm-d's scheduler over the replicas' KV events, and
 * over its own approximate index with today's window, September 2025's, and September 2025's for an agent that sends
 * its tool schemas in the request's `tools` field. Each row is one lever cell at the lesson's defaults
 * (leverCell.ts), the same the prose quotes.
 */
import { CompareRow, CompareTable } from '../kit/CompareTable';
import { formatDuration, formatNumber, formatPercent } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import { LLMD_APPROX_CURRENT, LLMD_APPROX_DEFAULTS } from '../../sim/engine/fleet/routerDefaults';
import {
  ECON_ROUTER_LABELS,
  ECON_TP,
  econReplicasPerNode,
  type EconRouterId,
} from '../../sim/lessons/economicsLabSetup';
import { ECON_MODEL_NAME } from './econSetup';
import { GRID_DEFAULTS, useLeverCell } from './leverCell';

const POLICY = 'ttl-offload';

const windowOf = (w: { maxPrefixBlocks: number; blockTokens: number }) =>
  (w.maxPrefixBlocks * w.blockTokens).toLocaleString('en-US');

/** The routers of the table, in order, with what each one's prefix score reads. */
export const ROUTER_VIEW_ROWS: readonly { router: EconRouterId; reads: string }[] = [
  { router: 'round-robin', reads: 'no prefix score: it takes the replicas in turn' },
  { router: 'cache-aware', reads: 'the replicas’ KV events: what each holds' },
  {
    router: 'llm-d-approximate',
    reads: `what it sent each replica: a prompt’s first ${windowOf(LLMD_APPROX_CURRENT)} tokens`,
  },
  {
    router: 'llm-d-approximate-2025',
    reads: `what it sent each replica: a prompt’s first ${windowOf(LLMD_APPROX_DEFAULTS)} tokens`,
  },
  {
    router: 'llm-d-approximate-2025-messages',
    reads: `what it sent each replica: the first ${windowOf(LLMD_APPROX_DEFAULTS)} tokens of the messages, the tool schemas left out`,
  },
];

const COLUMNS = [
  'Router, and what its prefix score reads',
  'Agents per replica',
  'Prompt tokens reused',
  'Replicas never sent a turn',
  'TTFT p90',
];

export function RouterViewsTable() {
  const node = findNode(GRID_DEFAULTS.node as string);
  const replicas = node ? econReplicasPerNode(node) : NaN;
  return (
    <figure className="table-figure" data-figure="router-views">
      <figcaption>
        One {node?.name ?? GRID_DEFAULTS.node} ({formatNumber(replicas)} replicas of {ECON_MODEL_NAME} on{' '}
        {ECON_TP} GPUs each) behind each router, the lever grid's agents, SLOs and TTL-then-offload policy.
        llm-d's scheduler weighs each replica's waiting queue and free KV 2 and its prefix score 3 in every
        row but round-robin. Agents per replica: the largest concurrency meeting both SLOs; the other columns
        at that concurrency.
      </figcaption>
      <CompareTable columns={COLUMNS}>
        {ROUTER_VIEW_ROWS.map((row) => (
          <RouterViewRow key={row.router} router={row.router} reads={row.reads} />
        ))}
      </CompareTable>
    </figure>
  );
}

function RouterViewRow({ router, reads }: { router: EconRouterId; reads: string }) {
  const { cell, failed } = useLeverCell(router, POLICY);
  const p = cell?.point;
  return (
    <CompareRow
      data-row={router}
      head={ECON_ROUTER_LABELS[router]}
      note={reads}
      span={COLUMNS.length - 1}
      cells={
        p ? (
          <>
            <td data-label="Agents per replica" data-cell="per-replica">
              {cell.atLeast ? '≥ ' : ''}
              {formatNumber(cell.agentsPerReplica)}
            </td>
            <td data-label="Prompt tokens reused">{formatPercent(p.reuseRatio, 2)}</td>
            <td data-label="Replicas never sent a turn" data-cell="idle">
              {formatNumber(p.idleReplicas)} of {formatNumber(p.replicas)}
            </td>
            <td data-label="TTFT p90">{formatDuration(p.ttftP90S, 3)}</td>
          </>
        ) : failed ? (
          <td colSpan={COLUMNS.length - 1}>could not be computed</td>
        ) : null
      }
    />
  );
}
