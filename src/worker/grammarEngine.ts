/**
 * The real grammar engine of lessons 07.08–07.09: XGrammar (@mlc-ai/web-xgrammar, WASM) over the o200k_base
 * vocabulary (gpt-tokenizer's rank table), set up once per worker on first use (~0.5–1 s) and kept.
 * Loaded only through a dynamic import from grammarMethods.ts, so importing methods.ts stays light.
 *
 * In Node (Vitest) the library's UMD file needs `require` and `__filename` as globals before it is imported;
 * it then registers itself as `globalThis.xgrammar` (see tests/lesson-07-08-engine.test.ts).
 */
import { captureEngineErrors } from './grammarConsole'; // first: it must wrap console.error before the engine binds it
import * as XGR from '@mlc-ai/web-xgrammar';
import bpeRanks from 'gpt-tokenizer/esm/bpeRanks/o200k_base';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import {
  buildByteLevelVocab,
  countAllowed,
  isAllowed,
  O200K_EOS,
  O200K_VOCAB_SIZE,
  sampleAllowed,
  type RankEntry,
  type Vocab,
} from '../sim/lessons/grammar/vocab';
import { prepareSchema, SchemaError, type PreparedSchema } from '../sim/lessons/grammar/schema';

type Xgr = typeof XGR;
type TokenizerInfo = Awaited<ReturnType<Xgr['TokenizerInfo']['createTokenizerInfo']>>;
type GrammarCompiler = Awaited<ReturnType<Xgr['GrammarCompiler']['createGrammarCompiler']>>;

function lib(): Xgr {
  return (XGR as Partial<Xgr>).GrammarCompiler ? XGR : (globalThis as unknown as { xgrammar: Xgr }).xgrammar;
}

export interface EngineSetup {
  /** ms spent building the byte-level vocabulary strings */
  vocabMs: number;
  /** ms in TokenizerInfo.createTokenizerInfo (the engine sorts and indexes the vocabulary) */
  tokenizerInfoMs: number;
  vocabSize: number;
  eosId: number;
}

interface Engine {
  xgr: Xgr;
  tinfo: TokenizerInfo;
  compiler: GrammarCompiler;
  vocab: Vocab;
  setup: EngineSetup;
}

let enginePromise: Promise<Engine> | null = null;

async function createEngine(): Promise<Engine> {
  const xgr = lib();
  const t0 = performance.now();
  const vocab = buildByteLevelVocab(bpeRanks as unknown as ArrayLike<RankEntry>);
  const t1 = performance.now();
  const tinfo = await xgr.TokenizerInfo.createTokenizerInfo(
    vocab.encoded,
    'byte_level',
    false,
    O200K_VOCAB_SIZE,
    [O200K_EOS],
  );
  const t2 = performance.now();
  // Cache off: every compile in these lessons is measured as a cold compile; 07.09 adds its own cache.
  const compiler = await xgr.GrammarCompiler.createGrammarCompiler(tinfo, false);
  return {
    xgr,
    tinfo,
    compiler,
    vocab,
    setup: { vocabMs: t1 - t0, tokenizerInfoMs: t2 - t1, vocabSize: O200K_VOCAB_SIZE, eosId: O200K_EOS },
  };
}

export function getEngine(): Promise<Engine> {
  enginePromise ??= createEngine().catch((e: unknown) => {
    enginePromise = null;
    throw e;
  });
  return enginePromise;
}

/** Tokens probed at every step, to show by name which are allowed. */
export const PROBES = [
  '{',
  '{"',
  '"',
  'Sure',
  '```',
  ' ',
  '\n',
  '}',
  ',',
  ':',
  'true',
  '1',
  '<|endoftext|>',
] as const;

export interface TraceStep {
  /** Token the document puts at this step (−1: end of sequence). */
  tokenId: number;
  token: string;
  /** Tokens the mask allows at this step, out of the vocabulary. */
  allowed: number;
  /** Whether the document's token is among them. */
  accepted: boolean;
  /** µs to fill the mask for this step. */
  maskUs: number;
  /** A spread sample of allowed tokens (display text). */
  sample: string[];
  /** One flag per probe: allowed at this step? */
  probes: boolean[];
  /** The text the grammar forces from here on (empty when there is a choice). */
  jumpForward: string;
}

export interface TraceResult {
  setup: EngineSetup;
  schema: PreparedSchema;
  /** The document as generated (compact JSON). */
  document: string;
  compileMs: number;
  steps: TraceStep[];
  /** True when every token was allowed and the end-of-sequence token terminated the matcher. */
  complete: boolean;
  /** Step at which the mask refused the document's token, if it did. */
  rejectedAt: number | null;
  probes: readonly string[];
  vocabSize: number;
}

function compactDocument(doc: string): string {
  try {
    return JSON.stringify(JSON.parse(doc));
  } catch {
    return doc; // not JSON: generate it as typed, and the mask will show where it breaks
  }
}

type Matcher = Awaited<ReturnType<Xgr['GrammarMatcher']['createGrammarMatcher']>>;

/**
 * Fill the mask and time it. Browsers coarsen performance.now() (to 100 µs in a page that is not
 * cross-origin isolated), so a fast step is repeated (the mask of a state is the same every time) in batches of
 * at least 2 ms or 64 fills. Two batches are timed and the faster batch's mean is reported: the machine's other
 * work only ever adds time (the same reason the compile keeps the faster of two).
 */
async function timedMask(matcher: Matcher): Promise<{ mask: Int32Array; maskUs: number }> {
  let mask: Int32Array | undefined;
  let fastestUs = Infinity;
  for (let batch = 0; batch < MASK_BATCHES; batch++) {
    const t0 = performance.now();
    let n = 0;
    let elapsed: number;
    do {
      const filled = await matcher.getNextTokenBitmask();
      mask ??= filled;
      n++;
      elapsed = performance.now() - t0;
    } while (elapsed < 2 && n < 64);
    fastestUs = Math.min(fastestUs, (elapsed * 1000) / n);
  }
  return { mask: mask!, maskUs: fastestUs };
}

/** Timed batches per mask step (timedMask). */
const MASK_BATCHES = 2;

type Compiled = Awaited<ReturnType<GrammarCompiler['compileJSONSchema']>>;

/**
 * Set once the engine crashed: a WebAssembly RuntimeError ("memory access out of bounds") means its stack ran
 * into its memory, and every later call into this instance fails (measured: even a one-line schema, even with a
 * new compiler or tokenizer info). Only a fresh worker has a whole engine again.
 */
let crashed = false;
export const ENGINE_CRASHED =
  'The grammar engine crashed on this schema (it ran out of stack, most likely from deep nesting or sheer size) ' +
  'and cannot compile anything more in this worker. The lab restarts the worker; your texts are still in the ' +
  'editors. Simplify the schema and compile again.';

/** True once the engine of this worker crashed (the worker method then has the worker restarted). */
export function engineCrashed(): boolean {
  return crashed;
}

/** Compile with the engine's reason captured; a crash marks the engine unusable (see `crashed`). */
async function compile(compiler: GrammarCompiler, schema: PreparedSchema): Promise<Compiled> {
  if (crashed) throw new SchemaError(ENGINE_CRASHED);
  const out = await captureEngineErrors(() =>
    compiler.compileJSONSchema(schema.compiled, false, -1, [',', ':']),
  );
  if ('value' in out) return out.value;
  if (out.crashed) {
    crashed = true;
    throw new SchemaError(ENGINE_CRASHED);
  }
  throw new SchemaError(`The grammar engine could not compile this schema: ${out.error}.`);
}

/** Compile a schema once more, cold, and return the milliseconds (for a min-of-runs timing). */
export function compileOnlyMs(schemaText: string, keepBounds = false): Promise<number> {
  return serial(async () => {
    const schema = prepareSchema(schemaText, keepBounds);
    const { compiler } = await getEngine();
    const t0 = performance.now();
    const compiled = await compile(compiler, schema);
    const ms = performance.now() - t0;
    compiled.dispose();
    return ms;
  });
}

/** Where a trace has got to, streamed to the widget while it runs. */
export type TraceProgress = { phase: 'compiling' } | { phase: 'masking'; step: number; steps: number };

/** What a caller may pass a trace: a cancel point, a progress sink and a token limit, all optional. */
export interface TraceHooks {
  /** Awaited every few steps; may throw to cancel (the job's checkpoint). */
  checkpoint?: () => Promise<void>;
  progress?: (p: TraceProgress) => Promise<void>;
  /** Refuse documents of more tokens than this, before compiling (SchemaError on the document). */
  maxTokens?: number;
  /** The message for a document over maxTokens. */
  tooManyTokens?: (tokens: number) => string;
}

/** Steps between a trace's checkpoints and progress frames: each step is at least 4 ms (timedMask). */
const STEPS_PER_CHECK = 8;

/** One engine, one job at a time: a trace's timings must not include another trace's work between its awaits. */
let queue: Promise<unknown> = Promise.resolve();
export function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

/** Traces already computed (the widget and the prose's figures ask for the same one), newest last. */
const cache = new Map<string, TraceResult>();
const CACHE_MAX = 16;

/**
 * Compile the schema, then generate the document token by token under the mask, recording every step.
 * Runs one at a time, and a repeated request returns the first run's trace (its timings included).
 */
export function traceDocument(
  schemaText: string,
  docText: string,
  sampleSize = 12,
  keepBounds = false,
  hooks: TraceHooks = {},
): Promise<TraceResult> {
  const key = JSON.stringify([schemaText, docText, sampleSize, keepBounds]);
  const hit = cache.get(key);
  if (hit) return Promise.resolve(hit);
  return serial(async () => {
    const again = cache.get(key);
    if (again) return again;
    const r = await runTrace(schemaText, docText, sampleSize, keepBounds, hooks);
    cache.set(key, r);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
    return r;
  });
}

async function runTrace(
  schemaText: string,
  docText: string,
  sampleSize: number,
  keepBounds: boolean,
  hooks: TraceHooks,
): Promise<TraceResult> {
  const schema = prepareSchema(schemaText, keepBounds);
  const document = compactDocument(docText);
  const ids = encode(document);
  if (hooks.maxTokens !== undefined && ids.length > hooks.maxTokens)
    throw new SchemaError(
      hooks.tooManyTokens?.(ids.length) ??
        `The document is ${ids.length} tokens; the limit is ${hooks.maxTokens}.`,
      'document',
    );
  const engine = await getEngine();
  const { xgr, compiler, vocab } = engine;
  const probeIds = PROBES.map((p) => (p === '<|endoftext|>' ? O200K_EOS : (encode(p)[0] ?? -1)));
  await hooks.progress?.({ phase: 'compiling' });
  const t0 = performance.now();
  const compiled = await compile(compiler, schema);
  const compileMs = performance.now() - t0;
  const matcher = await xgr.GrammarMatcher.createGrammarMatcher(compiled);
  const steps: TraceStep[] = [];
  let rejectedAt: number | null = null;
  let complete: boolean;
  try {
    for (let i = 0; i <= ids.length; i++) {
      if (i % STEPS_PER_CHECK === 0 && (hooks.checkpoint || hooks.progress)) {
        await hooks.checkpoint?.();
        await hooks.progress?.({ phase: 'masking', step: i, steps: ids.length + 1 });
      }
      const { mask, maskUs } = await timedMask(matcher);
      const tokenId = i < ids.length ? ids[i] : O200K_EOS;
      const ok = isAllowed(mask, tokenId);
      steps.push({
        tokenId,
        token: vocab.display[tokenId],
        allowed: countAllowed(mask, O200K_VOCAB_SIZE),
        accepted: ok,
        maskUs,
        sample: sampleAllowed(mask, O200K_VOCAB_SIZE, sampleSize).map((id) => vocab.display[id]),
        probes: probeIds.map((p) => p >= 0 && isAllowed(mask, p)),
        jumpForward: matcher.findJumpForwardString(),
      });
      if (!ok) {
        rejectedAt = i;
        break;
      }
      matcher.acceptToken(tokenId);
    }
    complete = rejectedAt === null && matcher.isTerminated();
  } finally {
    matcher.dispose();
    compiled.dispose();
  }
  return {
    setup: engine.setup,
    schema,
    document,
    compileMs,
    steps,
    complete,
    rejectedAt,
    probes: PROBES,
    vocabSize: O200K_VOCAB_SIZE,
  };
}
