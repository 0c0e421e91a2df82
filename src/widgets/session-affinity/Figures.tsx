/**
 * Inline figures for lesson 07.02's prose, computed from the catalogs and the cost model (arithmetic on
 * constants, so on the main thread), so that prose and widgets never disagree.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import { findModel } from '../../sim/engine/catalog/models';
import { ENGINE_BLOCK_SIZE } from '../../sim/engine/blocks';
import {
  allReducePerTokenTime,
  DEFAULT_ATTENTION_EFFICIENCY,
  DEFAULT_GEMM_EFFICIENCY,
  defaultHardware,
  iterationFixedTime,
  perTokenPrefillTime,
  prefillTime,
} from '../../sim/engine/cost';
import { attentionFlopsPerPair, bodyParams } from '../../sim/engine/flopsAndBytes';
import {
  coldTurnExtra,
  DEFAULT_TRAJECTORY,
  SWEEP_SHAPE,
  trajectoryPrompt,
  warmTurn,
} from '../../sim/lessons/affinityModel';
import { LAB_AFFINITY_ESCAPE } from '../../sim/engine/fleet/routerDefaults';
import { formatDuration, formatFlops, formatNumber, formatPercent } from '../../lib/format';

function setup(model: string, accelerator: string, gpus: number) {
  const m = findModel(model);
  const a = findAccelerator(accelerator);
  if (!m || !a) return null;
  return { m, a, hw: defaultHardware(a, gpus) };
}

const missing = (what: string) => <span className="figure-missing">[unknown {what}]</span>;

interface HwProps {
  model?: string;
  accelerator?: string;
  gpus?: number;
}

/** t_tok(c): marginal prefill time of one token at position c. */
export function PerTokenPrefill({
  model = 'llama-3.1-70b',
  accelerator = 'h100-sxm',
  gpus = 8,
  at = 0,
}: HwProps & { at?: number }) {
  const s = setup(model, accelerator, gpus);
  if (!s) return missing('model or accelerator');
  const t = perTokenPrefillTime(s.m, s.hw, at);
  return (
    <InlineFigure
      title={`t_tok(${at}) for ${s.m.name} on ${gpus} × ${s.a.name}, GEMM efficiency ${s.hw.gemmEfficiency}, attention ${s.hw.attentionEfficiency}, all-reduce included`}
      value={formatDuration(t)}
    />
  );
}

/** Turn k of the lesson's trajectory at the engine's block size (or `blockSize`): its prompt and what it finds cached. */
function trajTurn(turn: number, blockSize = ENGINE_BLOCK_SIZE): { prompt: number; cached: number } {
  return warmTurn(DEFAULT_TRAJECTORY, turn, blockSize);
}

/** Prefill time of turn k of the trajectory when warm: its new tokens on top of what turn k − 1 left cached. */
export function PrefillSeconds({
  model = 'llama-3.1-70b',
  accelerator = 'h100-sxm',
  gpus = 8,
  turn,
}: HwProps & { turn: number }) {
  const s = setup(model, accelerator, gpus);
  if (!s) return missing('model or accelerator');
  const { prompt, cached } = trajTurn(turn);
  return (
    <InlineFigure
      title={`prefillTime(${prompt - cached} new on ${cached} cached), ${s.m.name} on ${gpus} × ${s.a.name}`}
      value={formatDuration(prefillTime(s.m, s.hw, prompt - cached, cached))}
    />
  );
}

/** Extra TTFT of turn k of the trajectory landing cold: prefillTime(P, 0) − prefillTime(P − K, K). */
export function ColdTurnExtra({
  model = 'llama-3.1-70b',
  accelerator = 'h100-sxm',
  gpus = 8,
  turn,
}: HwProps & { turn: number }) {
  const s = setup(model, accelerator, gpus);
  if (!s) return missing('model or accelerator');
  const { prompt, cached } = trajTurn(turn);
  const c = coldTurnExtra(s.m, s.hw, prompt, cached);
  return (
    <InlineFigure
      title={`${formatDuration(c.coldS)} cold − ${formatDuration(c.warmS)} warm (${formatNumber(prompt)}-token prompt, ${formatNumber(cached)} cached when warm), ${s.m.name} on ${gpus} × ${s.a.name}`}
      value={formatDuration(c.extraS)}
    />
  );
}

/** 2 · body parameters: FLOPs per prefilled token outside attention. */
export function BodyFlops({ model = 'llama-3.1-70b' }: { model?: string }) {
  const m = findModel(model);
  if (!m) return missing('model');
  return (
    <InlineFigure
      title={`2 × ${formatNumber(bodyParams(m))} body parameters (${m.name})`}
      value={formatFlops(2 * bodyParams(m))}
    />
  );
}

/** a = 2 · layers · heads · (d_qk + d_v): attention FLOPs per (query, earlier token) pair. */
export function AttentionFlops({ model = 'llama-3.1-70b' }: { model?: string }) {
  const m = findModel(model);
  if (!m) return missing('model');
  return (
    <InlineFigure
      title={`2 × ${m.layers} layers × ${m.attentionHeads} heads × (d_qk + d_v) (${m.name})`}
      value={formatFlops(attentionFlopsPerPair(m, 'prefill'))}
    />
  );
}

/** Peak dense BF16 FLOP/s of one accelerator. */
export function PeakFlops({ accelerator = 'h100-sxm' }: { accelerator?: string }) {
  const a = findAccelerator(accelerator);
  if (!a) return missing('accelerator');
  return <InlineFigure title={`${a.name}, dense BF16 (catalog)`} value={formatFlops(a.bf16Flops, true)} />;
}

/** The engine's block size the fleet reuses at by default (vLLM's CacheConfig.DEFAULT_BLOCK_SIZE). */
export function EngineBlockSize() {
  return (
    <InlineFigure
      title="vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE"
      value={formatNumber(ENGINE_BLOCK_SIZE)}
    />
  );
}

/** The lesson trajectory's prompt at turn k, tokens. */
export function TrajPrompt({ turn }: { turn: number }) {
  return (
    <InlineFigure
      title={`head + ${turn} × (output + tool result)`}
      value={formatNumber(trajectoryPrompt(DEFAULT_TRAJECTORY, turn))}
    />
  );
}

/** Tokens turn k − 1 left computed (whole blocks of the engine's size). */
export function TrajKnown({ turn, blockSize = ENGINE_BLOCK_SIZE }: { turn: number; blockSize?: number }) {
  return (
    <InlineFigure
      title={`turn ${turn - 1}'s prompt + output − 1, in whole ${blockSize}-token blocks`}
      value={formatNumber(trajTurn(turn, blockSize).cached)}
    />
  );
}

/** Tokens turn k prefills when warm: its prompt less what turn k − 1 left computed. */
export function TrajNew({ turn, blockSize = ENGINE_BLOCK_SIZE }: { turn: number; blockSize?: number }) {
  const { prompt, cached } = trajTurn(turn, blockSize);
  return <InlineFigure title={`${prompt} − ${cached}`} value={formatNumber(prompt - cached)} />;
}

/** Warm hit rate of turn k under affinity: what turn k − 1 left computed / prompt k. */
export function TrajWarmHit({ turn, blockSize = ENGINE_BLOCK_SIZE }: { turn: number; blockSize?: number }) {
  const { prompt, cached } = trajTurn(turn, blockSize);
  return <InlineFigure title={`${cached} / ${prompt}`} value={formatPercent(cached / prompt)} />;
}

/** A number of the lesson trajectory's shape. */
export function Traj({ what }: { what: 'head' | 'growth' | 'output' | 'toolResult' | 'turns' }) {
  const t = DEFAULT_TRAJECTORY;
  const v =
    what === 'head'
      ? t.systemTokens + t.toolSchemaTokens + t.taskTokens
      : what === 'growth'
        ? t.outputTokens + t.toolResultTokens
        : what === 'output'
          ? t.outputTokens
          : what === 'toolResult'
            ? t.toolResultTokens
            : t.turns;
  return (
    <InlineFigure title="the lesson's trajectory (src/sim/lessons/affinity.ts)" value={formatNumber(v)} />
  );
}

/** 1/R as a percentage. */
export function OneOver({ r }: { r: number }) {
  return <InlineFigure title={`1/${r}`} value={formatPercent(1 / r)} />;
}

/** The cost model's fitted efficiencies, as the prose quotes them. */
export function Efficiency({ of }: { of: 'gemm' | 'attention' }) {
  const v = of === 'gemm' ? DEFAULT_GEMM_EFFICIENCY : DEFAULT_ATTENTION_EFFICIENCY;
  return (
    <InlineFigure
      title="src/sim/engine/cost.ts: fitted to vLLM's Llama-3.1-8B TTFT on one H100 (npm run validate)"
      value={formatPercent(v)}
    />
  );
}

/** β: the all-reduce seconds one prefilled token adds (2 per layer, NVLink inside the node). */
export function AllReducePerToken({ model = 'llama-3.1-70b', accelerator = 'h100-sxm', gpus = 8 }: HwProps) {
  const s = setup(model, accelerator, gpus);
  if (!s) return missing('model or accelerator');
  return (
    <InlineFigure
      title={`2 · layers · 2(G−1)/G · hidden · 2 B / the ring's bus bandwidth (the link × (1 − 0.86 / G²)), ${s.m.name} on ${gpus} × ${s.a.name}`}
      value={formatDuration(allReducePerTokenTime(s.m, s.hw))}
    />
  );
}

/** What every prefill iteration pays whatever its size: all-reduce latencies and the per-iteration overhead. */
export function IterationFixed({ model = 'llama-3.1-70b', accelerator = 'h100-sxm', gpus = 8 }: HwProps) {
  const s = setup(model, accelerator, gpus);
  if (!s) return missing('model or accelerator');
  return (
    <InlineFigure
      title={`all-reduce latencies + iteration overhead, ${s.m.name} on ${gpus} × ${s.a.name}`}
      value={formatDuration(iterationFixedTime(s.m, s.hw))}
    />
  );
}

/** The fleet view's workload shape: the apps that share a head, the range of a session's turns. */
export function SweepShape({ m }: { m: 'apps' | 'turns' }) {
  return m === 'apps' ? (
    <InlineFigure
      title="src/sim/lessons/affinityModel.ts SWEEP_SHAPE"
      value={formatNumber(SWEEP_SHAPE.apps)}
    />
  ) : (
    <InlineFigure
      title="src/sim/lessons/affinityModel.ts SWEEP_SHAPE (uniform)"
      value={`${formatNumber(SWEEP_SHAPE.turnsMin)} to ${formatNumber(SWEEP_SHAPE.turnsMax)}`}
    />
  );
}

/** The lab's affinity router's escape: a replica whose outstanding tokens pass max(floor, ratio × mean) loses the session. */
export function AffinityEscape({ m }: { m: 'ratio' | 'minTokens' }) {
  const e = LAB_AFFINITY_ESCAPE;
  return (
    <InlineFigure
      title="src/sim/engine/fleet/routerDefaults.ts LAB_AFFINITY_ESCAPE"
      value={m === 'ratio' ? `${formatNumber(e.overloadRatio)}×` : formatNumber(e.overloadMinTokens)}
    />
  );
}
