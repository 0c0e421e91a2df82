/**
 * Workload generators: agent sessions and chat sessions, as lazily advanced state machines.
 *
 * A prompt is a sequence of content segments (id + token count), never a bare length. Block hashes are
 * chained over segment content (see kvcache/hash.ts), so a prompt that is not a pure extension of the previous
 * turn (a compaction, a reordered tool block, a dynamic timestamp at the top) misses the cache exactly from the
 * block where it first differs.
 *
 * Agent turn k (k = 0 … turns−1) sends
 *   [timestamp?] system(app) tools(app, variant) task(session) out₀ res₀ … out_{k−1} res_{k−1}
 * and the model writes out_k (reasoning + a tool call). The tool runs for a sampled duration, its result res_k
 * is appended, and turn k+1 re-sends the whole context. The last turn's output is the final answer.
 * A chat turn sends system(app) u₀ a₀ … u_k and the model writes a_k; the human thinks before u_{k+1}.
 *
 * Determinism: each session draws from its own generator, derived from (seed, session index), so its turns do
 * not depend on how events of other sessions interleave.
 */
import { createRng, type Rng } from '../rng';
import type { Segment } from '../kvcache/hash';
import {
  sample,
  sampleInt,
  TOOL_LATENCY_PRESETS,
  uniformShape,
  type Dist,
  type ToolLatencyPreset,
} from './dist';

/** Segment kinds, folded into numeric segment ids (cheaper to hash than strings). */
export const SEG = {
  system: 1,
  tools: 2,
  task: 3,
  out: 4,
  result: 5,
  user: 6,
  summary: 7,
  timestamp: 8,
  trace: 9,
} as const;

const TWO24 = 16777216;
/** A numeric content id: kind (4 bits) · a (24 bits) · b (24 bits) < 2^52. */
export function segId(kind: number, a: number, b: number): number {
  return (kind * TWO24 + (a % TWO24)) * TWO24 + (b % TWO24);
}

/** Whether content id `id` is an app's tool schemas (SEG.tools), which an index of the chat messages leaves out. */
export function isToolSchema(id: string | number): boolean {
  return typeof id === 'number' && Math.floor(id / (TWO24 * TWO24)) === SEG.tools;
}

export type ToolLatency =
  Dist | ToolLatencyPreset | { mix: { weight: number; tool: Dist | ToolLatencyPreset }[] };

export interface AgentClass {
  kind: 'agent';
  name: string;
  /** Relative share of new sessions. Default 1. */
  weight?: number;
  /** Distinct apps (each with its own system prompt and tool schemas, shared by its sessions). Default 1. */
  apps?: number;
  /** System prompt tokens of an app (sampled once per app). */
  systemTokens: Dist;
  /** Tool-schema tokens of an app (sampled once per app). */
  toolSchemaTokens: Dist;
  /** The task statement of a session. */
  taskTokens: Dist;
  /** Turns (model calls) per session, ≥ 1. */
  turns: Dist;
  /** Output tokens per intermediate turn: reasoning + a tool call. */
  outputTokens: Dist;
  /** Output tokens of the final turn (the answer). Default: outputTokens. */
  finalOutputTokens?: Dist;
  /** Tokens of a tool result appended to the context. */
  toolResultTokens: Dist;
  /** Tool duration in seconds: a distribution, a preset name, or a weighted mix. */
  toolLatency: ToolLatency;
  /** Prompts that are not pure extensions. All optional. */
  nonExtension?: {
    /** When the context exceeds `thresholdTokens`, it is summarised to `summaryTokens` after the tool block. */
    compaction?: { thresholdTokens: number; summaryTokens: number };
    /** A dynamic timestamp of this many tokens at the very top, new every turn (defeats all reuse). */
    timestampTokens?: number;
    /** Chance per turn that the tool block is re-serialised in another order (misses from the tool block on). */
    reorderToolsProb?: number;
  };
  /** Structured output: the chance a turn carries a schema, and how many distinct schemas the app uses. */
  structuredOutput?: { prob: number; schemas: number };
}

export interface ChatClass {
  kind: 'chat';
  name: string;
  weight?: number;
  apps?: number;
  systemTokens: Dist;
  userTokens: Dist;
  outputTokens: Dist;
  turns: Dist;
  /** Human think time between turns, seconds. */
  thinkTime: Dist;
  structuredOutput?: { prob: number; schemas: number };
}

export type SessionClass = AgentClass | ChatClass;

/** One model call to be served. */
export interface RequestSpec {
  segments: Segment[];
  promptTokens: number;
  outputTokens: number;
  /** Segment id of the output, so the next turn's prompt (which includes it) shares its blocks. */
  outputSegmentId: number;
  /**
   * The output as one segment object, made once (by the fleet when it hashes the request) and appended to the
   * session's context as it is: a session's prompt hasher then finds last turn's output in the next prompt by
   * reference, without reading either segment (segments are never changed once made).
   */
  outputSegment?: Segment;
  /** Structured-output schema id, or -1. */
  schemaId: number;
  turn: number;
  /**
   * Tokens at the start of the prompt that other sessions' prompts begin with too (the app's system prompt and tool
   * schemas): the replica lets their blocks be checked once for all of them (kvcache/shares.ts). Speed only.
   */
  sharedPrefixTokens?: number;
  /** Precomputed block hashes (trace replay); otherwise the engine hashes the segments. */
  hashes?: number[];
  /** With precomputed hashes: the segments they were computed from, for tail matching (fleet/tails.ts). */
  hashSegments?: Segment[];
}

export interface Session {
  index: number;
  cls: number;
  app: number;
  turn: number;
  turns: number;
  rng: Rng;
  /** Context so far, as segments (the next prompt before any per-turn header). */
  context: Segment[];
  contextTokens: number;
  /** Tool-block variant (changes when the tool block is reordered). */
  toolVariant: number;
  compactions: number;
}

export interface AfterTurn {
  /** 'tool' (agent), 'think' (chat), or 'end' (no further turn). */
  kind: 'tool' | 'think' | 'end';
  /** Seconds until the next request of the session. */
  delayS: number;
}

/** Mixes 32-bit words for deriving per-session seeds. */
function mixSeed(seed: number, salt: number, i: number): number {
  let h = (seed | 0) ^ Math.imul(salt | 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) ^ Math.imul(i | 0, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2f);
  return (h ^ (h >>> 16)) >>> 0;
}

export function resolveToolLatency(t: ToolLatency): Dist {
  if (typeof t === 'string') return TOOL_LATENCY_PRESETS[t];
  if ('mix' in t) {
    return {
      kind: 'mixture',
      components: t.mix.map((m) => ({ weight: m.weight, dist: resolveToolLatency(m.tool) })),
    };
  }
  return t;
}

/** The fields of each kind of class that are distributions: required, then optional (the validator reads these too). */
export const CLASS_DISTS = {
  agent: {
    required: ['systemTokens', 'toolSchemaTokens', 'taskTokens', 'turns', 'outputTokens', 'toolResultTokens'],
    optional: ['finalOutputTokens'],
  },
  chat: { required: ['systemTokens', 'userTokens', 'outputTokens', 'turns', 'thinkTime'], optional: [] },
} as const satisfies Record<
  SessionClass['kind'],
  { required: readonly string[]; optional: readonly string[] }
>;

/** A class with each of its distributions in one shape (the rest of it as it is). */
function shapeDists(c: SessionClass): SessionClass {
  const out = { ...c } as Record<string, unknown>;
  const fields = CLASS_DISTS[c.kind];
  for (const k of [...fields.required, ...fields.optional]) {
    const d = out[k] as Dist | undefined;
    if (d) out[k] = uniformShape(d);
  }
  return out as unknown as SessionClass;
}

/** Generates sessions of the given classes and advances them turn by turn. */
export class WorkloadGenerator {
  private readonly classRng: Rng;
  private readonly appTokens = new Map<number, [number, number]>();
  private readonly toolDist: (Dist | null)[];
  /** The classes with every distribution in one shape (dist.ts uniformShape), for sampling. */
  private readonly shaped: readonly SessionClass[];

  constructor(
    readonly classes: readonly SessionClass[],
    private readonly seed: number,
    /**
     * Grow a session's context in place rather than as a new array per turn. Only for a caller that reads a
     * request's `segments` when it gets it and never later (the fleet engine reads them at submit): an earlier
     * request's `segments` is then the same array, which later turns extend. 07.01's trace writer keeps every
     * turn's request, so it keeps the default.
     */
    private readonly contextInPlace = false,
  ) {
    if (classes.length === 0) throw new RangeError('a workload needs at least one session class');
    this.classRng = createRng(mixSeed(seed, 0x636c6173, 0));
    this.toolDist = classes.map((c) =>
      c.kind === 'agent' ? uniformShape(resolveToolLatency(c.toolLatency)) : null,
    );
    this.shaped = classes.map(shapeDists);
  }

  /** Picks the class of the next session (from the generator's own stream: call in session order). */
  pickClass(): number {
    if (this.classes.length === 1) return 0;
    let total = 0;
    for (const c of this.classes) total += c.weight ?? 1;
    let u = this.classRng.next() * total;
    for (let i = 0; i < this.classes.length; i++) {
      u -= this.classes[i].weight ?? 1;
      if (u < 0) return i;
    }
    return this.classes.length - 1;
  }

  /** System and tool-schema tokens of app `app` of class `cls`, drawn once from a stream of their own. */
  private app(cls: number, app: number): [number, number] {
    const key = cls * 1_000_003 + app;
    let v = this.appTokens.get(key);
    if (!v) {
      const rng = createRng(mixSeed(this.seed, 0x61707073 + cls, app));
      const c = this.shaped[cls];
      v = [sampleInt(c.systemTokens, rng), c.kind === 'agent' ? sampleInt(c.toolSchemaTokens, rng) : 0];
      this.appTokens.set(key, v);
    }
    return v;
  }

  createSession(index: number, cls = this.pickClass()): Session {
    const c = this.shaped[cls];
    const rng = createRng(mixSeed(this.seed, 0x73657373, index));
    const apps = Math.max(1, Math.floor(c.apps ?? 1));
    const app = apps > 1 ? rng.int(apps) : 0;
    const [sys, tools] = this.app(cls, app);
    const appKey = cls * 4096 + app;
    const context: Segment[] = [{ id: segId(SEG.system, appKey, 0), tokens: sys }];
    if (c.kind === 'agent') {
      context.push({ id: segId(SEG.tools, appKey, 0), tokens: tools });
      context.push({ id: segId(SEG.task, index, 0), tokens: sampleInt(c.taskTokens, rng) });
    }
    const turns = sampleInt(c.turns, rng, 1);
    let tokens = 0;
    for (const s of context) tokens += s.tokens;
    return {
      index,
      cls,
      app,
      turn: 0,
      turns,
      rng,
      context,
      contextTokens: tokens,
      toolVariant: 0,
      compactions: 0,
    };
  }

  /** The request for the session's current turn. */
  nextRequest(s: Session): RequestSpec {
    const c = this.shaped[s.cls];
    const rng = s.rng;
    const last = s.turn === s.turns - 1;
    let segments = s.context;
    let extra = 0; // tokens of segments before the context (a per-turn header)
    if (c.kind === 'chat') {
      const u: Segment = { id: segId(SEG.user, s.index, s.turn), tokens: sampleInt(c.userTokens, rng) };
      // the user's message stays in the context
      if (this.contextInPlace) s.context.push(u);
      else s.context = s.context.concat(u);
      s.contextTokens += u.tokens;
      segments = s.context;
    } else {
      const ne = c.nonExtension;
      if (ne?.reorderToolsProb && s.turn > 0 && rng.next() < ne.reorderToolsProb) {
        s.toolVariant++;
        // context[1] is always the tool block of an agent (compaction keeps it there too).
        s.context = s.context.slice();
        s.context[1] = {
          id: segId(SEG.tools, s.cls * 4096 + s.app, s.toolVariant),
          tokens: s.context[1].tokens,
        };
        segments = s.context;
      }
      if (ne?.timestampTokens) {
        segments = [{ id: segId(SEG.timestamp, s.index, s.turn), tokens: ne.timestampTokens }, ...s.context];
        extra = ne.timestampTokens;
      }
    }
    // The context's tokens are counted as it changes (contextTokens): summing its segments each turn was
    // O(turns²) a session.
    const promptTokens = s.contextTokens + extra;
    const outDist = last && c.kind === 'agent' && c.finalOutputTokens ? c.finalOutputTokens : c.outputTokens;
    const outputTokens = sampleInt(outDist, rng, 1);
    const so = c.structuredOutput;
    const schemaId =
      so && so.prob > 0 && rng.next() < so.prob
        ? (s.cls * 4096 + s.app) * 4096 + rng.int(Math.max(1, so.schemas))
        : -1;
    // The app's head starts the prompt unless a per-turn header comes first.
    const head =
      segments[0] === s.context[0] ? s.context[0].tokens + (c.kind === 'agent' ? s.context[1].tokens : 0) : 0;
    const outputSegmentId = segId(SEG.out, s.index, s.turn);
    return {
      segments,
      promptTokens,
      outputTokens,
      outputSegmentId,
      // Made here, not added by the engine later (which gave every spec a second shape).
      outputSegment: { id: outputSegmentId, tokens: outputTokens },
      schemaId,
      turn: s.turn,
      sharedPrefixTokens: head,
    };
  }

  /** The request of the current turn finished: append its output (and the tool result), say what comes next. */
  afterTurn(s: Session, req: RequestSpec): AfterTurn {
    const c = this.shaped[s.cls];
    const rng = s.rng;
    // A new array, unless contextInPlace: the finished request's `segments` is this one, and its readers (07.01's
    // trace writer keeps every turn's) must not see the turns after it.
    const out = req.outputSegment ?? { id: req.outputSegmentId, tokens: req.outputTokens };
    if (this.contextInPlace) s.context.push(out);
    else s.context = s.context.concat(out);
    s.contextTokens += req.outputTokens;
    s.turn++;
    if (s.turn >= s.turns) return { kind: 'end', delayS: 0 };
    if (c.kind === 'chat') return { kind: 'think', delayS: Math.max(0, sample(c.thinkTime, rng)) };
    const delayS = Math.max(0, sample(this.toolDist[s.cls]!, rng));
    const res: Segment = {
      id: segId(SEG.result, s.index, s.turn - 1),
      tokens: sampleInt(c.toolResultTokens, rng),
    };
    s.context.push(res);
    s.contextTokens += res.tokens;
    const comp = c.nonExtension?.compaction;
    if (comp && s.contextTokens > comp.thresholdTokens) {
      // Keep the app's head (system + tools), replace task and history by a summary.
      const head = s.context.slice(0, 2);
      const summary: Segment = {
        id: segId(SEG.summary, s.index, s.compactions++),
        tokens: comp.summaryTokens,
      };
      s.context = [...head, summary];
      s.contextTokens = head[0].tokens + head[1].tokens + summary.tokens;
    }
    return { kind: 'tool', delayS };
  }
}
