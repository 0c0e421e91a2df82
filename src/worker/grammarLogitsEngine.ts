/**
 * Lesson 07.08's "mask over logits": the real XGrammar mask (all 200,019 bits, every step) generated over a
 * preset's reply, either with the whole reply constrained to the schema or, as agents do, only the tool-call
 * span (a structural tag: free prose, then the schema's grammar from the trigger to the end tag). Each step
 * also carries the illustrative logits (src/sim/lessons/grammar/logits.ts) with the real mask applied.
 * Loaded through a dynamic import from grammarMethods.ts, like grammarEngine.ts.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { getEngine, serial } from './grammarEngine';
import { captureEngineErrors } from './grammarConsole';
import { applyMask, illustrativeCandidates, type MaskedLogits } from '../sim/lessons/grammar/logits';
import { findPreset } from '../sim/lessons/grammar/presets';
import { stepContexts, type ReplyLayout, type StepContext } from '../sim/lessons/grammar/stepContext';
import { countAllowed, isAllowed, O200K_EOS, O200K_VOCAB_SIZE } from '../sim/lessons/grammar/vocab';
import type { JobContext } from './job';

export type ConstrainMode = 'whole-reply' | 'tool-span';

export interface LogitTraceRequest {
  preset: string;
  mode: ConstrainMode;
  seed: number;
}

export interface LogitStep extends MaskedLogits {
  tokenId: number;
  /** Display text of the token the reply writes at this step. */
  token: string;
  /** Display text of each candidate, same order as `candidates`. */
  candidateText: string[];
  allowedCount: number;
  context: StepContext;
}

export interface LogitTrace {
  preset: string;
  mode: ConstrainMode;
  seed: number;
  /** The reply as generated. */
  text: string;
  vocabSize: number;
  /** 32-bit words per mask (⌈200,019 / 32⌉ = 6,251). */
  wordsPerMask: number;
  /** Every step's mask, one after another (bit id of word id >> 5 set ⇔ allowed). */
  masks: Uint32Array;
  steps: LogitStep[];
  /** First step the grammar constrains (0 in whole-reply mode). */
  takeover: number;
  complete: boolean;
  compileMs: number;
}

/** Chat and Markdown openers a model asked for JSON tends to write (illustrative candidates). */
const PROSE = [
  'Sure',
  ' Sure',
  'Here',
  'I',
  ' I',
  '```',
  '```json',
  'The',
  '\n\n',
  'Okay',
  '**',
  'Certainly',
];
/** Other tokens of the kinds a tool call is made of (illustrative candidates). */
const ALTERNATIVES = [
  ' ',
  '\n',
  '"',
  '{',
  '}',
  ',',
  ':',
  ' "',
  'true',
  '1',
  'Paris',
  ' Paris',
  'London',
  'name',
  'the',
  'path',
  '_',
  '.',
];

function singleTokens(texts: readonly string[]): number[] {
  return texts
    .map((t) => encode(t))
    .filter((ids) => ids.length === 1)
    .map((ids) => ids[0]);
}

const cache = new Map<string, LogitTrace>();
const CACHE_MAX = 8;

export function logitTrace(req: LogitTraceRequest, ctx: JobContext): Promise<LogitTrace> {
  const key = JSON.stringify([req.preset, req.mode, req.seed]);
  const hit = cache.get(key);
  if (hit) return Promise.resolve(hit);
  return serial(async () => {
    const r = cache.get(key) ?? (await runLogitTrace(req, ctx));
    cache.set(key, r);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
    return r;
  });
}

async function runLogitTrace(req: LogitTraceRequest, ctx: JobContext): Promise<LogitTrace> {
  const preset = findPreset(req.preset);
  if (!preset) throw new Error(`There is no preset "${req.preset}"; pick one from the list.`);
  const { xgr, compiler, vocab } = await getEngine();
  const json = JSON.stringify(preset.document);
  const schema = preset.schema as Record<string, unknown>;
  const tc = preset.toolCall;
  const tagged = req.mode === 'tool-span';
  const text = tagged ? `${tc.preamble}${tc.begin}${json}${tc.end}` : json;
  const jsonStart = tagged ? tc.preamble.length + tc.begin.length : 0;
  const layout: ReplyLayout = {
    jsonStart,
    jsonEnd: jsonStart + json.length,
    tagged: tagged
      ? { preambleEnd: tc.preamble.length, triggerLength: tc.trigger.length, endLength: tc.end.length }
      : undefined,
  };

  const t0 = performance.now();
  const out = await captureEngineErrors(() =>
    tagged
      ? compiler.compileStructuralTag({
          type: 'structural_tag',
          format: {
            type: 'triggered_tags',
            triggers: [tc.trigger],
            tags: [
              {
                type: 'tag',
                begin: tc.begin,
                content: { type: 'json_schema', json_schema: schema },
                end: tc.end,
              },
            ],
          },
        })
      : compiler.compileJSONSchema(JSON.stringify(schema), false, -1, [',', ':']),
  );
  if ('error' in out) throw new Error(`The grammar engine could not compile this preset: ${out.error}.`);
  const compiled = out.value;
  const compileMs = performance.now() - t0;

  const ids = [...encode(text), O200K_EOS];
  // Character offset where each token starts (the byte-level vocabulary has one character per byte).
  const bytes = new TextEncoder().encode(text);
  const charAtByte = new Int32Array(bytes.length + 1);
  for (let b = 0, c = 0; b <= bytes.length; b++) {
    charAtByte[b] = c;
    if (b < bytes.length && (bytes[b] & 0xc0) !== 0x80) c++;
  }
  const starts: number[] = [];
  let byte = 0;
  for (const id of ids) {
    starts.push(charAtByte[Math.min(byte, bytes.length)]);
    if (id !== O200K_EOS) byte += vocab.encoded[id].length;
  }
  const contexts = stepContexts(text, starts, layout, schema);
  const prosePool = singleTokens(PROSE);
  const alternativePool = singleTokens(ALTERNATIVES);

  const words = Math.ceil(O200K_VOCAB_SIZE / 32);
  const masks: Int32Array[] = [];
  const steps: LogitStep[] = [];
  const matcher = await xgr.GrammarMatcher.createGrammarMatcher(compiled);
  let complete: boolean;
  try {
    for (let i = 0; i < ids.length; i++) {
      if (i % 8 === 7) await ctx.checkpoint();
      const mask = await matcher.getNextTokenBitmask();
      const tokenId = ids[i];
      const allowedCount = countAllowed(mask, O200K_VOCAB_SIZE);
      const has = (id: number) => isAllowed(mask, id);
      const raw = illustrativeCandidates({
        step: i,
        nextId: tokenId,
        prosePool,
        alternativePool,
        isAllowed: has,
        allowedCount,
        vocabSize: O200K_VOCAB_SIZE,
        seed: req.seed,
      });
      const masked = applyMask(raw, has, allowedCount, O200K_VOCAB_SIZE);
      masks.push(mask.slice(0, words));
      steps.push({
        ...masked,
        tokenId,
        token: vocab.display[tokenId],
        candidateText: masked.candidates.map((c) => vocab.display[c.id]),
        allowedCount,
        context: contexts[i],
      });
      if (!has(tokenId)) break; // a preset's reply is valid; this only guards an edited preset
      matcher.acceptToken(tokenId);
    }
    complete = matcher.isTerminated();
  } finally {
    matcher.dispose();
    compiled.dispose();
  }
  const packed = new Uint32Array(masks.length * words);
  masks.forEach((m, i) => packed.set(new Uint32Array(m.buffer, m.byteOffset, words), i * words));
  const takeover = tagged
    ? Math.max(
        0,
        contexts.findIndex((c) => c !== 'free-text' && c !== 'trigger'),
      )
    : 0;
  return {
    preset: preset.id,
    mode: req.mode,
    seed: req.seed,
    text,
    vocabSize: O200K_VOCAB_SIZE,
    wordsPerMask: words,
    masks: packed,
    steps,
    takeover,
    complete,
    compileMs,
  };
}
