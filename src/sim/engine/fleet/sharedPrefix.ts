/**
 * The `shared-prefix` workload: inference-perf's shared-prefix data generator under its Poisson stage ladder, the
 * workload of llm-d's scheduling benchmarks (llm-d/llm-d-kv-cache `benchmarking/73-capacity/README.md`).
 *
 * What inference-perf does (kubernetes-sigs/inference-perf `inference_perf/datagen/shared_prefix_datagen.py`, as of
 * the benchmark, Sept. 2025): it draws `num_groups` shared prefixes of `system_prompt_len` random tokens and, per
 * group, `num_prompts_per_group` questions of `question_len` tokens; prompt = prefix + question. The 750 prompts are
 * shuffled once, and request n sends prompt n mod 750 (`get_request(n)`), so every prompt, question included,
 * comes back once per 750 requests. Each load stage sends Poisson arrivals at `rate` for `duration` seconds, the
 * stages `interval` seconds apart (LoadConfig.interval, default 1 s).
 *
 * Here the prompts are segments (a group's prefix, a question), so the fleet's block hashing sees exactly the
 * sharing the real token ids have; the generator turns the workload into a native trace (docs/traces.md) replayed
 * by timestamps: requests are independent, as the harness's are. Deterministic from the scenario's seed.
 */
import { createRng } from '../rng';
import type { TraceWorkload, ValidationError } from './scenario';

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
  /** Seconds between stages (inference-perf LoadConfig.interval). Default 1. */
  stageGapS?: number;
}

/** inference-perf's LoadConfig.interval default. */
export const INFERENCE_PERF_STAGE_GAP_S = 1;

/** Each stage's [start, end) in seconds from the start of the run. */
export function stageWindows(w: SharedPrefixWorkload): { start: number; end: number; rate: number }[] {
  const gap = w.stageGapS ?? INFERENCE_PERF_STAGE_GAP_S;
  const out: { start: number; end: number; rate: number }[] = [];
  let t = 0;
  for (const s of w.stages) {
    out.push({ start: t, end: t + s.durationS, rate: s.rate });
    t += s.durationS + gap;
  }
  return out;
}

/** Seconds from the first stage's start to the last one's end. */
export function sharedPrefixDurationS(w: SharedPrefixWorkload): number {
  const win = stageWindows(w);
  return win.length ? win[win.length - 1].end : 0;
}

interface Arrival {
  t: number;
  prompt: number;
}

/** The requests, in arrival order: time and prompt index (group · promptsPerGroup + question). */
export function sharedPrefixArrivals(w: SharedPrefixWorkload, seed: number): Arrival[] {
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
  const out: Arrival[] = [];
  for (const win of stageWindows(w)) {
    for (let t = win.start + rng.exponential(1 / win.rate); t < win.end; t += rng.exponential(1 / win.rate))
      out.push({ t, prompt: order[out.length % n] });
  }
  return out;
}

/** The stage (index into `stages`) of each request, in arrival order (= request id order in the fleet). */
export function sharedPrefixStages(w: SharedPrefixWorkload, seed: number): Int32Array {
  const win = stageWindows(w);
  const arr = sharedPrefixArrivals(w, seed);
  const out = new Int32Array(arr.length);
  let k = 0;
  arr.forEach((a, i) => {
    while (a.t >= win[k].end) k++;
    out[i] = k;
  });
  return out;
}

/** The workload as a native trace (JSONL text), replayed by timestamps. */
export function sharedPrefixTrace(w: SharedPrefixWorkload, seed: number): TraceWorkload {
  const P = w.promptsPerGroup;
  const lines = [
    JSON.stringify({ format: 'sal-trace', version: 1, description: 'inference-perf shared_prefix' }),
  ];
  sharedPrefixArrivals(w, seed).forEach((a, i) => {
    const g = Math.floor(a.prompt / P);
    lines.push(
      JSON.stringify({
        session: i,
        t: a.t,
        input: [
          { id: `g${g}/prefix`, tokens: w.systemTokens },
          { id: `g${g}/q${a.prompt % P}`, tokens: w.questionTokens },
        ],
        output: { id: `r${i}/out`, tokens: w.outputTokens },
      }),
    );
  });
  return { kind: 'trace', format: 'native', text: lines.join('\n'), replay: 'timestamps' };
}

export function validateSharedPrefix(w: Record<string, unknown>, errors: ValidationError[]): void {
  const p = 'workload';
  const known = [
    'kind',
    'groups',
    'promptsPerGroup',
    'systemTokens',
    'questionTokens',
    'outputTokens',
    'stages',
    'stageGapS',
  ];
  for (const k of Object.keys(w))
    if (!known.includes(k))
      errors.push({ path: `${p}.${k}`, message: `unknown field (known: ${known.join(', ')})` });
  const int = (k: string, min: number, max: number) => {
    const v = w[k];
    if (!(typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max))
      errors.push({
        path: `${p}.${k}`,
        message: `must be a whole number from ${min} to ${max} (got ${JSON.stringify(v)})`,
      });
  };
  int('groups', 1, 100_000);
  int('promptsPerGroup', 1, 10_000);
  int('systemTokens', 0, 1_000_000);
  int('questionTokens', 0, 1_000_000);
  int('outputTokens', 1, 1_000_000);
  if (w.stageGapS !== undefined && !(typeof w.stageGapS === 'number' && w.stageGapS >= 0))
    errors.push({ path: `${p}.stageGapS`, message: 'must be seconds ≥ 0' });
  if (!Array.isArray(w.stages) || w.stages.length === 0) {
    errors.push({ path: `${p}.stages`, message: 'must be a non-empty array of {rate, durationS}' });
    return;
  }
  let requests = 0;
  w.stages.forEach((s: unknown, i: number) => {
    const sp = `${p}.stages[${i}]`;
    if (typeof s !== 'object' || s === null)
      return errors.push({ path: sp, message: 'must be {rate, durationS}' });
    const o = s as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (k !== 'rate' && k !== 'durationS')
        errors.push({ path: `${sp}.${k}`, message: 'unknown field (known: rate, durationS)' });
    if (!(typeof o.rate === 'number' && o.rate > 0 && o.rate <= 10_000))
      errors.push({
        path: `${sp}.rate`,
        message: `must be requests/s in (0, 10000] (got ${JSON.stringify(o.rate)})`,
      });
    if (!(typeof o.durationS === 'number' && o.durationS > 0))
      errors.push({
        path: `${sp}.durationS`,
        message: `must be seconds > 0 (got ${JSON.stringify(o.durationS)})`,
      });
    if (typeof o.rate === 'number' && typeof o.durationS === 'number') requests += o.rate * o.durationS;
  });
  if (requests > 2_000_000)
    errors.push({
      path: `${p}.stages`,
      message: `about ${Math.round(requests).toLocaleString('en-US')} requests: at most 2,000,000 in one run`,
    });
}
