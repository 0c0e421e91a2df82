/**
 * The `shared-prefix` workload: inference-perf's shared-prefix data generator under its Poisson stage ladder, the
 * workload of llm-d's scheduling benchmarks (llm-d/llm-d-kv-cache `benchmarking/73-capacity/README.md`).
 *
 * What inference-perf does (kubernetes-sigs/inference-perf `inference_perf/datagen/shared_prefix_datagen.py`, as of
 * the benchmark, Sept. 2025): it draws `num_groups` shared prefixes of `system_prompt_len` random tokens and, per
 * group, `num_prompts_per_group` questions of `question_len` tokens; prompt = prefix + question. The 750 prompts are
 * shuffled once, and request n sends prompt n mod 750 (`get_request(n)`), so every prompt, question included,
 * comes back once per 750 requests. Each load stage sends Poisson arrivals at `rate` for `duration` seconds, the
 * next stage starting `interval` seconds (LoadConfig.interval, default 1 s) after the last request has ended.
 *
 * Stages run one after another: a stage starts once every request of the previous one has ended (StagePacer).
 * Deterministic from the scenario's seed.
 */
import { segmentBlockHashes, type Segment } from '../kvcache/hash';
import { createRng } from '../rng';
import { isObj, type Obj, type SchemaValidator } from './schemaValidator';
import type { LoadedTrace, TraceTurn } from './trace';
import { SEG, segId, type RequestSpec } from './workload';

export interface LoadStage {
  /** Requests per second (Poisson). */
  rate: number;
  durationS: number;
}

export interface SharedPrefixWorkload {
  kind: 'shared-prefix';
  /** inference-perf `num_groups`. */
  groups: number;
  /** `num_prompts_per_group`. */
  promptsPerGroup: number;
  /** `system_prompt_len`: tokens of each group's shared prefix. */
  systemTokens: number;
  /** `question_len`: tokens of each prompt's own question. */
  questionTokens: number;
  /** Tokens generated per request (inference-perf's `output_len`, sent as max_tokens with ignore_eos). */
  outputTokens: number;
  /** Load stages, in order. */
  stages: LoadStage[];
  /** Seconds from a stage's last request ending to the next stage (inference-perf LoadConfig.interval). Default 1. */
  stageGapS?: number;
  /**
   * Share of the generated tokens the harness counts, 0..1 (default 1). inference-perf does not read the server's
   * token count: it re-tokenises the streamed text (`apis/completion.py` process_response,
   * `tokenizer.count_tokens(output_text)`), and that text lacks the special tokens a model emits under
   * `ignore_eos` (vLLM detokenises with `skip_special_tokens`). Only the stage report (stageReport.ts) applies it;
   * the fleet's own metrics count what the engine generated.
   */
  countedOutputShare?: number;
}

/** inference-perf's LoadConfig.interval default. */
export const INFERENCE_PERF_STAGE_GAP_S = 1;

/** inference-perf's stage start: request times begin 1 s after the stage does ("allow generation a second"). */
export const INFERENCE_PERF_STAGE_LEAD_S = 1;

export interface StagePlan {
  /** Seconds from the stage's first scheduled instant (its start + 1 s), one per request, ascending. */
  offsets: Float64Array;
  /** Prompt index (group · promptsPerGroup + question) per request. */
  prompts: Int32Array;
}

/**
 * The requests of every stage, as inference-perf draws them (`loadgen/load_generator.py` run_stage,
 * `loadgen/load_timer.py` PoissonLoadTimer, Sept. 2025): `int(rate × duration)` requests; each second a Poisson
 * number of them, spread over the second by exponential gaps scaled to fill it; request n of a stage sends prompt n
 * mod the prompt count (the numbering restarts every stage), from one shuffled list.
 */
export function sharedPrefixPlan(w: SharedPrefixWorkload, seed: number): StagePlan[] {
  const rng = createRng(seed ^ 0x73686172);
  const n = w.groups * w.promptsPerGroup;
  // Prompts generated group by group, then shuffled once (random.shuffle in _generate_prompts).
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const x = order[i];
    order[i] = order[j];
    order[j] = x;
  }
  return w.stages.map((st) => {
    const count = Math.floor(st.rate * st.durationS);
    const offsets = new Float64Array(count);
    const prompts = new Int32Array(count);
    let k = 0;
    for (let second = 0; k < count; second++) {
      const inSecond = poisson(rng, st.rate);
      if (inSecond < 1) continue;
      const gaps: number[] = [];
      let sum = 0;
      for (let j = 0; j < inSecond; j++) {
        const g = rng.exponential(1);
        gaps.push(g);
        sum += g;
      }
      let t = second;
      for (let j = 0; j < inSecond && k < count; j++) {
        t += gaps[j] / sum;
        offsets[k] = t;
        prompts[k] = order[k % n];
        k++;
      }
    }
    return { offsets, prompts };
  });
}

/** A Poisson draw: Knuth's product of uniforms, over parts of the mean of at most 30 (a sum of Poissons is one). */
function poisson(rng: ReturnType<typeof createRng>, mean: number): number {
  let k = 0;
  for (let left = mean; left > 0; left -= 30) {
    const limit = Math.exp(-Math.min(30, left));
    for (let p = rng.next(); p > limit; p *= rng.next()) k++;
  }
  return k;
}

/** The stage of each request, in the order the fleet numbers them (stage by stage, in time order). */
export function sharedPrefixStages(w: SharedPrefixWorkload, seed: number): Int32Array {
  const plan = sharedPrefixPlan(w, seed);
  const out = new Int32Array(plan.reduce((a, p) => a + p.offsets.length, 0));
  let i = 0;
  plan.forEach((p, k) => {
    out.fill(k, i, i + p.offsets.length);
    i += p.offsets.length;
  });
  return out;
}

/**
 * The stage clock: a stage starts when every request of the one before has ended (finished or failed) and the
 * interval has passed (run_stage waits for `finished_requests_counter` to reach the stage's count, then the
 * generator sleeps `interval`), so no backlog carries from one stage into the next. Requests are numbered in
 * order, stage by stage: `timeOf(i)` is request i's send time once its stage has started, else null.
 */
export class StagePacer {
  private readonly first: Int32Array;
  private readonly stageOf: Int32Array;
  private readonly start: Float64Array;
  private readonly ended: Int32Array;

  constructor(
    private readonly plan: StagePlan[],
    private readonly gapS: number,
  ) {
    this.first = new Int32Array(plan.length + 1);
    plan.forEach((p, k) => (this.first[k + 1] = this.first[k] + p.offsets.length));
    this.stageOf = new Int32Array(this.first[plan.length]);
    plan.forEach((_, k) => this.stageOf.fill(k, this.first[k], this.first[k + 1]));
    this.start = new Float64Array(plan.length).fill(NaN);
    this.ended = new Int32Array(plan.length);
    if (plan.length) this.start[0] = 0;
  }

  get requests(): number {
    return this.stageOf.length;
  }

  /** Send time of request i, or null while its stage waits for the previous one to drain. */
  timeOf(i: number): number | null {
    const k = this.stageOf[i];
    const s = this.start[k];
    if (Number.isNaN(s)) return null;
    return s + INFERENCE_PERF_STAGE_LEAD_S + this.plan[k].offsets[i - this.first[k]];
  }

  /**
   * Request i ended at `now`. When it was the last of its stage, the next stage starts after the interval: returns
   * the index and time of that stage's first request (for the caller to schedule), else null.
   */
  endedAt(i: number, now: number): { index: number; t: number } | null {
    const k = this.stageOf[i];
    this.ended[k]++;
    let next = k + 1;
    if (this.ended[k] < this.plan[k].offsets.length) return null;
    // Skip stages with no requests (a rate × duration under one).
    while (next < this.plan.length && this.plan[next].offsets.length === 0) next++;
    if (next >= this.plan.length) return null;
    this.start[next] = now + this.gapS;
    return { index: this.first[next], t: this.timeOf(this.first[next])! };
  }
}

/**
 * The workload as requests for the fleet: one trace turn per request (independent, as the harness's are), stage by
 * stage, and the pacer that releases each stage when the previous one has drained. Each prompt's segments are
 * a group prefix and a question, so the block hashing sees exactly the sharing the real token ids have.
 */
export function sharedPrefixTurns(
  w: SharedPrefixWorkload,
  seed: number,
  blockSize: number,
): { trace: LoadedTrace; pacer: StagePacer } {
  const plan = sharedPrefixPlan(w, seed);
  const P = w.promptsPerGroup;
  const turns: TraceTurn[] = [];
  for (const st of plan)
    for (let j = 0; j < st.offsets.length; j++) {
      const i = turns.length;
      const g = Math.floor(st.prompts[j] / P);
      const input: Segment[] = [
        { id: segId(SEG.system, g, 73), tokens: w.systemTokens },
        { id: segId(SEG.user, g, st.prompts[j] % P), tokens: w.questionTokens },
      ];
      const outId = segId(SEG.out, i, 0);
      const hashSegments = input.concat({ id: outId, tokens: w.outputTokens });
      const spec: RequestSpec = {
        segments: input,
        promptTokens: Math.max(1, w.systemTokens + w.questionTokens),
        outputTokens: w.outputTokens,
        outputSegmentId: outId,
        schemaId: -1,
        turn: 0,
        sharedPrefixTokens: w.systemTokens,
        hashes: segmentBlockHashes(hashSegments, blockSize).hashes,
        hashSegments,
      };
      turns.push({ session: -1, turn: 0, t: st.offsets[j], spec, gapS: 0 });
    }
  const trace: LoadedTrace = {
    format: 'native',
    turns,
    sessions: 0,
    bySession: [],
    errorCount: 0,
    firstErrors: [],
  };
  return { trace, pacer: new StagePacer(plan, w.stageGapS ?? INFERENCE_PERF_STAGE_GAP_S) };
}

export function validateSharedPrefix(v: SchemaValidator, w: Obj): void {
  const p = 'workload';
  v.known(w, p, [
    'kind',
    'groups',
    'promptsPerGroup',
    'systemTokens',
    'questionTokens',
    'outputTokens',
    'stages',
    'stageGapS',
    'countedOutputShare',
  ]);
  v.whole(w, 'groups', p, { min: 1, max: 100_000, required: true });
  v.whole(w, 'promptsPerGroup', p, { min: 1, max: 10_000, required: true });
  v.whole(w, 'systemTokens', p, { min: 0, max: 1_000_000, required: true });
  v.whole(w, 'questionTokens', p, { min: 0, max: 1_000_000, required: true });
  v.whole(w, 'outputTokens', p, { min: 1, max: 1_000_000, required: true });
  if (w.stageGapS !== undefined && !(typeof w.stageGapS === 'number' && w.stageGapS >= 0))
    v.err(`${p}.stageGapS`, 'must be seconds ≥ 0');
  const share = w.countedOutputShare;
  if (share !== undefined && !(typeof share === 'number' && share > 0 && share <= 1))
    v.err(
      `${p}.countedOutputShare`,
      `must be a share in (0, 1] of the generated tokens (got ${JSON.stringify(share)})`,
    );
  if (!Array.isArray(w.stages) || w.stages.length === 0)
    return v.err(`${p}.stages`, 'must be a non-empty array of {rate, durationS}');
  let requests = 0;
  w.stages.forEach((s: unknown, i: number) => {
    const sp = `${p}.stages[${i}]`;
    if (!isObj(s)) return v.err(sp, 'must be {rate, durationS}');
    v.known(s, sp, ['rate', 'durationS']);
    if (!(typeof s.rate === 'number' && s.rate > 0 && s.rate <= 10_000))
      v.err(`${sp}.rate`, `must be requests/s in (0, 10000] (got ${JSON.stringify(s.rate)})`);
    if (!(typeof s.durationS === 'number' && s.durationS > 0))
      v.err(`${sp}.durationS`, `must be seconds > 0 (got ${JSON.stringify(s.durationS)})`);
    if (typeof s.rate === 'number' && typeof s.durationS === 'number') requests += s.rate * s.durationS;
  });
  if (requests > 2_000_000)
    v.err(
      `${p}.stages`,
      `about ${Math.round(requests).toLocaleString('en-US')} requests: at most 2,000,000 in one run`,
    );
}
