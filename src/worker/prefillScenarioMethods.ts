/**
 * Worker method of lesson 07.10: the prefill scenarios shipped with the fleet simulator (scenarios/prefill/, a
 * 100k-token document among chat sessions: no chunking, 2,048- and 512-token chunks, disaggregated prefill), run
 * and reduced to the gaps, TTFTs and goodput the lesson's table and prose quote.
 */
import { BadRequest } from './badRequest';
import { ACCELERATORS } from '../sim/engine/catalog/accelerators';
import { MODELS } from '../sim/engine/catalog/models';
import { runScenario } from '../sim/engine/fleet/run';
import type { Scenario } from '../sim/engine/fleet/scenario';
import noChunking from '../../scenarios/prefill/100k-no-chunking.json';
import chunk2048 from '../../scenarios/prefill/100k-chunk-2048.json';
import chunk512 from '../../scenarios/prefill/100k-chunk-512.json';
import disaggregated from '../../scenarios/prefill/100k-disaggregated.json';

export const PREFILL_SCENARIOS = {
  'no-chunking': noChunking,
  'chunk-2048': chunk2048,
  'chunk-512': chunk512,
  disaggregated,
} as const;

export type PrefillScenarioId = keyof typeof PREFILL_SCENARIOS;

export interface ScenarioRow {
  id: PrefillScenarioId;
  file: string;
  tokenBudget: number;
  chunk: number | false;
  gap: { p50: number; p99: number; max: number; count: number };
  chatTtft: { p50: number; p90: number; p99: number };
  docTtft: { mean: number; count: number };
  chatTpotP90: number;
  goodputShare: number;
  /** GPUs of the fleet (replicas × tp). */
  gpus: number;
  /** Disaggregated runs: the prefill pool's busy share and its longest transfer, a document's KV (fleet/disagg.ts). */
  prefillUtilisation?: number;
  transferMaxS?: number;
}

export interface PrefillScenariosResponse {
  model: string;
  accelerator: string;
  durationS: number;
  rows: ScenarioRow[];
}

/**
 * Run the prefill scenarios of scenarios/prefill/ (docs/scenarios.md) and report their gaps and TTFTs. The runs
 * are deterministic, so every caller with the same ids shares one computation (the lesson's table and the figures
 * in its prose ask at once); it yields to the worker's event loop as it goes.
 */
export function prefillScenarios(req: { ids: PrefillScenarioId[] }): Promise<PrefillScenariosResponse> {
  const key = JSON.stringify(req.ids);
  let p = scenarioCache.get(key);
  if (!p) {
    p = runPrefillScenarios(req.ids);
    scenarioCache.set(key, p);
    p.catch(() => scenarioCache.delete(key));
  }
  return p;
}

const scenarioCache = new Map<string, Promise<PrefillScenariosResponse>>();

const yieldNow = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function runPrefillScenarios(ids: PrefillScenarioId[]): Promise<PrefillScenariosResponse> {
  const rows: ScenarioRow[] = [];
  let model = '';
  let accelerator = '';
  let durationS = 0;
  for (const id of ids) {
    const sc = PREFILL_SCENARIOS[id] as unknown as Scenario | undefined;
    if (!sc) throw new BadRequest(`unknown prefill scenario "${String(id)}"`);
    const res = await runScenario(sc, { checkpoint: yieldNow, checkpointEvery: 2000, includeSeries: false });
    const m = res.metrics;
    const chat = m.sessions.perClass.find((c) => c.name === 'chat');
    const doc = m.sessions.perClass.find((c) => c.name === 'long-document');
    model = MODELS.find((x) => x.id === m.config.model)?.name ?? m.config.model;
    accelerator = ACCELERATORS.find((x) => x.id === m.config.accelerator)?.name ?? m.config.accelerator;
    durationS = sc.durationS;
    rows.push({
      id,
      file: `scenarios/prefill/100k-${id}.json`,
      tokenBudget: m.config.tokenBudget,
      chunk: m.config.chunk,
      gap: {
        p50: m.requests.interTokenGap.p50,
        p99: m.requests.interTokenGap.p99,
        max: m.requests.interTokenGap.max,
        count: m.requests.interTokenGap.count,
      },
      chatTtft: { p50: chat?.ttft.p50 ?? NaN, p90: chat?.ttft.p90 ?? NaN, p99: chat?.ttft.p99 ?? NaN },
      docTtft: { mean: doc?.ttft.mean ?? NaN, count: doc?.ttft.count ?? 0 },
      chatTpotP90: chat?.tpot.p90 ?? NaN,
      goodputShare: m.fleet.goodput.share,
      gpus: m.config.replicas * m.config.tp,
      prefillUtilisation: m.disaggregation?.utilisation.prefill,
      transferMaxS: m.disaggregation?.ttftRemote.transferS.max,
    });
  }
  return { model, accelerator, durationS, rows };
}

export const prefillScenarioMethods = { prefillScenarios };
