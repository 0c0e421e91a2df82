/**
 * Inline figures for lesson 07.03's prose, computed from the same formulas (theory.ts) and catalogs as the
 * widgets, so prose and widgets never disagree. Formula look-ups run on the main thread; the one simulated
 * table asks the worker.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { CompareRow, CompareTable } from '../kit/CompareTable';
import { useMemo } from 'react';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import { findModel, kvBytesPerToken, weightBytes } from '../../sim/engine/catalog/models';
import { profiledReserveBytesPerGpu } from '../../sim/engine/hbm';
import {
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatPercent,
  formatRatio,
} from '../../lib/format';
import {
  duplicatedPrefixBytes,
  replicaKvBlocks,
  replicasHoldingSession,
  spreadTurnHitRate,
  affinityTurnHitRate,
} from '../../sim/lessons/routing/theory';
import {
  LAB_ACCELERATOR,
  LAB_BLOCK_SIZE,
  LAB_MODEL,
  LAB_SHARED_TOKENS,
  LAB_TP,
  POLICY_LABELS,
  ROUTER_POLICIES,
  type CacheViewKind,
  type RouterPolicy,
} from '../../sim/lessons/routing/constants';
import {
  LLMD_APPROX_CURRENT,
  LLMD_APPROX_DEFAULTS,
  SGLANG_RADIX_DEFAULTS,
  SGLANG_ROUTER_DEFAULTS,
  SGLANG_V04_ROUTER_DEFAULTS,
} from '../../sim/engine/fleet/routerDefaults';
import { useSimulation } from '../kit/useSimulation';
import { ANIMATION_DEFAULT_FLEET, ANIMATION_START_S } from './schema';
import { GAIE_REFRESH_METRICS_S } from '../../sim/engine/fleet/llmd';
import './cache-router.css';

/** 1/R as a percentage. */
export function WarmShare({ replicas }: { replicas: number }) {
  return <InlineFigure value={formatPercent(1 / replicas)} title={`1 / ${replicas}`} />;
}

/** Expected hit rate of one turn spread over R replicas (or with affinity). */
export function TurnHitRate(p: {
  replicas: number;
  shared: number;
  previous: number;
  prompt: number;
  affinity?: boolean;
}) {
  const shape = {
    replicas: p.replicas,
    sharedTokens: p.shared,
    previousContextTokens: p.previous,
    promptTokens: p.prompt,
  };
  const h = p.affinity ? affinityTurnHitRate(shape) : spreadTurnHitRate(shape);
  const formula = p.affinity
    ? `${p.previous} / ${p.prompt}`
    : `(${p.shared} + (${p.previous} − ${p.shared}) / ${p.replicas}) / ${p.prompt}`;
  return <InlineFigure value={formatPercent(h)} title={formula} />;
}

/** Replicas holding a copy of a session after k turns. */
export function Copies({
  policy,
  replicas,
  turns,
}: {
  policy: 'round-robin' | 'random';
  replicas: number;
  turns: number;
}) {
  const c = replicasHoldingSession(policy, replicas, turns);
  return (
    <InlineFigure
      value={formatCount(c, 3)}
      title={
        policy === 'round-robin'
          ? `min(${turns}, ${replicas})`
          : `${replicas} × (1 − (1 − 1/${replicas})^${turns})`
      }
    />
  );
}

/** KV held in duplicate by one session spread over `copies` replicas. */
export function DuplicateBytes({
  model = LAB_MODEL,
  tokens,
  copies,
}: {
  model?: string;
  tokens: number;
  copies: number;
}) {
  const m = findModel(model);
  if (!m) return <span className="figure-missing">[unknown model {model}]</span>;
  const b = kvBytesPerToken(m, 'bf16');
  return (
    <InlineFigure
      value={formatBytesDecimal(duplicatedPrefixBytes(b, tokens, copies))}
      title={`(${copies} − 1) × ${tokens} tokens × ${b} B`}
    />
  );
}

/** The lab replica's KV capacity: blocks and tokens in HBM after the weights. */
export function LabKvCapacity({ unit }: { unit: 'tokens' | 'blocks' | 'bytes' }) {
  const m = findModel(LAB_MODEL)!;
  const a = findAccelerator(LAB_ACCELERATOR)!;
  const perToken = kvBytesPerToken(m, 'bf16');
  const blocks = replicaKvBlocks({
    gpus: LAB_TP,
    memoryBytes: a.memoryBytes,
    memoryUtilization: 0.9,
    weightBytes: weightBytes(m, 'bf16'),
    kvBytesPerToken: perToken,
    blockSize: LAB_BLOCK_SIZE,
  });
  const reserve = LAB_TP * profiledReserveBytesPerGpu(LAB_TP);
  const title = `⌊(${LAB_TP} × ${formatBytesDecimal(a.memoryBytes)} × 0.9 − ${formatBytesDecimal(reserve)} vLLM's activation reserve − ${formatBytesDecimal(weightBytes(m, 'bf16'))}) ÷ (${LAB_BLOCK_SIZE} × ${perToken} B)⌋ = ${blocks} blocks`;
  const value =
    unit === 'blocks'
      ? formatCount(blocks, 4)
      : unit === 'tokens'
        ? `${formatCount(blocks * LAB_BLOCK_SIZE)} tokens`
        : formatBytesDecimal(blocks * LAB_BLOCK_SIZE * perToken);
  return <InlineFigure value={value} title={title} />;
}

const TABLE_ARGS = { ...ANIMATION_DEFAULT_FLEET, policies: [...ROUTER_POLICIES] };

const POLICY_COLUMNS = [
  'Policy',
  'Hit rate',
  'Warm turns',
  'TTFT p50',
  'TTFT p90',
  'Imbalance',
  'Duplicate KV',
] as const;

/** The six policies on the animated router's default fleet, simulated in the worker when the page opens. */
export function PolicyTable() {
  const sim = useSimulation('routerSummaries', TABLE_ARGS);
  const rows = sim.result;
  const bytesPerBlock = LAB_BLOCK_SIZE * kvBytesPerToken(findModel(LAB_MODEL)!, 'bf16');
  return (
    <figure className="table-figure" data-figure="policy-table" data-state={sim.status}>
      <figcaption>
        {sim.status === 'error'
          ? `The six policies could not be simulated: ${sim.error ?? ''}`
          : `Simulated in your browser when this page opened: ${TABLE_ARGS.replicas} replicas, ${TABLE_ARGS.sessionsPerS} new ${TABLE_ARGS.sessionsPerS === 1 ? 'session' : 'sessions'}/s for ${TABLE_ARGS.arrivalS} s, seed ${TABLE_ARGS.seed}, load threshold ${TABLE_ARGS.loadThreshold} (the animated router's defaults).`}
      </figcaption>
      <CompareTable columns={POLICY_COLUMNS}>
        {ROUTER_POLICIES.map((p, i) => {
          const r = rows?.[i];
          return (
            <CompareRow
              key={p}
              data-policy={p}
              head={POLICY_LABELS[p]}
              span={POLICY_COLUMNS.length - 1}
              cells={
                r ? (
                  <>
                    <td data-label="Hit rate">{formatPercent(r.summary.hitRate)}</td>
                    <td data-label="Warm turns">{formatPercent(r.summary.warmTurnShare)}</td>
                    <td data-label="TTFT p50">{formatDuration(r.summary.ttftP50)}</td>
                    <td data-label="TTFT p90">{formatDuration(r.summary.ttftP90)}</td>
                    <td data-label="Imbalance">{formatRatio(r.summary.imbalance)}</td>
                    <td data-label="Duplicate KV">
                      {formatBytesDecimal(r.duplicateBlocksMean * bytesPerBlock)}
                    </td>
                  </>
                ) : sim.status === 'error' ? (
                  <td colSpan={POLICY_COLUMNS.length - 1} className="pending">
                    not simulated
                  </td>
                ) : null
              }
            />
          );
        })}
      </CompareTable>
    </figure>
  );
}

/**
 * One policy's whole-run figure on the animated router's default fleet (hit rate, pool reloads, p90 TTFT or the
 * share of stale routes), optionally with a shared KV pool or the approximate view: simulated in the worker when
 * the page opens, so the prose quotes the run, not a typed number.
 */
export function DefaultRunFigure({
  policy,
  poolGB = 0,
  cacheView = 'exact',
  field = 'hitRate',
  loadThreshold = ANIMATION_DEFAULT_FLEET.loadThreshold,
}: {
  policy: RouterPolicy;
  poolGB?: number;
  cacheView?: CacheViewKind;
  field?: 'hitRate' | 'poolHits' | 'ttftP90' | 'staleRouteShare';
  /** Cache-aware's balance_abs_threshold, requests (default: the animated router's). */
  loadThreshold?: number;
}) {
  const args = useMemo(
    () => ({ ...ANIMATION_DEFAULT_FLEET, loadThreshold, poolGB, cacheView, policies: [policy] }),
    [policy, poolGB, cacheView, loadThreshold],
  );
  const sim = useSimulation('routerSummaries', args);
  const s = sim.result?.[0]?.summary;
  if (!s) return <span className="figure">{sim.status === 'error' ? 'error' : '…'}</span>;
  const where = `${POLICY_LABELS[policy]} on the animated router's defaults${poolGB ? `, ${poolGB} GB shared pool` : ''}${cacheView === 'approximate' ? ", SGLang's approximate tree" : ''}${loadThreshold !== ANIMATION_DEFAULT_FLEET.loadThreshold ? `, load threshold ${loadThreshold}` : ''}`;
  switch (field) {
    case 'hitRate':
      return (
        <InlineFigure
          value={formatPercent(s.hitRate)}
          title={`${where}: Σ reused ÷ Σ (reused + prefilled) tokens`}
        />
      );
    case 'poolHits':
      return (
        <InlineFigure
          value={formatCount(s.poolHits, 4)}
          title={`${where}: turns that reloaded part of their prompt from the pool`}
        />
      );
    case 'ttftP90':
      return <InlineFigure value={formatDuration(s.ttftP90)} title={`${where}: p90 time to first token`} />;
    case 'staleRouteShare':
      return (
        <InlineFigure
          value={formatPercent(s.staleRouteShare)}
          title={`${where}: routes on a believed prefix whose replica served at least one page less from cache`}
        />
      );
  }
}

/**
 * SGLang's router defaults as fleet/routerDefaults.ts cites them: sglang-router 0.3.0's (the same in smg 1.9.0, its
 * successor's latest release: smg-project/smg model_gateway/src/main.rs at v1.9.0), or SGLang v0.4's.
 */
export function SglangDefault({
  name,
  version = 'current',
}: {
  name: 'cacheThreshold' | 'balanceAbsThreshold' | 'balanceRelThreshold';
  version?: 'current' | 'v0.4';
}) {
  const d = version === 'v0.4' ? SGLANG_V04_ROUTER_DEFAULTS : SGLANG_ROUTER_DEFAULTS;
  const v = d[name];
  const source =
    version === 'v0.4'
      ? 'sgl-router as of SGLang v0.4 (router_args.py)'
      : 'sgl-model-gateway main.rs, sglang-router 0.3.0; the same in smg 1.9.0';
  return <InlineFigure value={formatCount(v, 5)} title={`${name}, ${source}`} />;
}

/** A router view's shipped default (fleet/routerDefaults.ts, sources there), or the lab's page size. */
export function ViewDefault({ name }: { name: keyof typeof VIEW_DEFAULTS }) {
  const [v, title] = VIEW_DEFAULTS[name]();
  return <InlineFigure value={v} title={title} />;
}

const VIEW_DEFAULTS = {
  llmdWindowTokens: () => [
    (LLMD_APPROX_DEFAULTS.maxPrefixBlocks * LLMD_APPROX_DEFAULTS.blockTokens).toLocaleString('en-US'),
    `${LLMD_APPROX_DEFAULTS.maxPrefixBlocks} blocks × ${LLMD_APPROX_DEFAULTS.blockTokens} tokens (llm-d approximate scorer, GAIE v1.0.0)`,
  ],
  llmdWindowTokensToday: () => [
    (LLMD_APPROX_CURRENT.maxPrefixBlocks * LLMD_APPROX_CURRENT.blockTokens).toLocaleString('en-US'),
    `${LLMD_APPROX_CURRENT.maxPrefixBlocks} blocks × ${LLMD_APPROX_CURRENT.blockTokens} tokens (llm-d-router's approximate scorer since PR #1548, maxPrefixTokensToMatch)`,
  ],
  llmdBlockTokensToday: () => [
    formatCount(LLMD_APPROX_CURRENT.blockTokens, 2),
    'tokens per block: vLLM’s 16 raised to llm-d-router’s minimum of 64 (since PR #1548)',
  ],
  llmdMaxBlocks: () => [
    formatCount(LLMD_APPROX_DEFAULTS.maxPrefixBlocks, 3),
    'maxPrefixBlocksToMatch (llm-d approximate scorer, GAIE v1.0.0)',
  ],
  llmdBlockTokens: () => [
    formatCount(LLMD_APPROX_DEFAULTS.blockTokens, 2),
    'tokens per block: 64 characters at 4 characters a token (llm-d approximate scorer, GAIE v1.0.0)',
  ],
  sglangTreeChars: () => [
    SGLANG_RADIX_DEFAULTS.maxTreeSize.toLocaleString('en-US'),
    '--max-tree-size, characters per worker (sgl-model-gateway)',
  ],
  sglangTreeTokens: () => [
    `${formatCount(SGLANG_RADIX_DEFAULTS.maxTreeSize / SGLANG_RADIX_DEFAULTS.charsPerToken / 1e6, 3)} million`,
    `${SGLANG_RADIX_DEFAULTS.maxTreeSize} characters ÷ ${SGLANG_RADIX_DEFAULTS.charsPerToken} characters a token`,
  ],
  charsPerToken: () => [
    formatCount(SGLANG_RADIX_DEFAULTS.charsPerToken, 2),
    'characters per token, the lab’s conversion',
  ],
  pageTokens: () => [formatCount(LAB_BLOCK_SIZE, 3), 'tokens per page the lab’s fleet tracks'],
  llmdScrapeMs: () => [
    formatCount(GAIE_REFRESH_METRICS_S * 1000, 2),
    'ms between the endpoint picker’s scrapes of each pod’s metrics (GAIE --refresh-metrics-interval)',
  ],
  sharedTokens: () => [
    LAB_SHARED_TOKENS.toLocaleString('en-US'),
    'the app’s system prompt and tool schemas, tokens',
  ],
} satisfies Record<string, () => [string, string]>;

/** A default of the animated router, as the widget uses it (schema.ts), so the prose never restates it by hand. */
export function AnimationDefault({
  name,
}: {
  name: 'replicas' | 'sessionsPerS' | 'arrivalS' | 'startS' | 'loadThreshold';
}) {
  const v =
    name === 'startS'
      ? ANIMATION_START_S
      : name === 'arrivalS'
        ? ANIMATION_DEFAULT_FLEET.arrivalS
        : ANIMATION_DEFAULT_FLEET[name];
  return <InlineFigure value={formatCount(v, 3)} title={`the animated router's default (${name})`} />;
}
