/**
 * The project's native trace format (`sal-trace`, version 1): JSONL, one line per turn (request) of an agent or
 * chat session, prompts described as content segments so prefix reuse follows from content, not from lengths.
 * Specified in docs/traces.md. In short:
 *
 *   {"format":"sal-trace","version":1,"blockSize":16}                                   optional first line
 *   {"session":"s1","turn":0,"t":0,"input":[{"id":"sys","tokens":1200},{"id":"s1/task","tokens":80}],
 *    "output":{"id":"s1/out0","tokens":120},"tool":{"name":"bash","durationS":0.4}}
 *   {"session":"s1","turn":1,"t":2.1,"append":[{"id":"s1/tool0","tokens":900}],"output":95}
 *
 * `input` is the whole prompt; `append` means "the previous turn's prompt, its output, then these segments"
 * (an agent re-sending its growing context). `output` is a token count (its id defaults to
 * `<session>/out<turn>`) or a segment. `tool` is the tool call the output makes (absent or null: none).
 */
import type { Segment } from '../kvcache/hash';
import { describeValue, ErrorSink, FieldError, type ReadOptions, type TraceIssue } from './errors';
import { isBlank, numberedLines, type LineSource } from './lines';

export const NATIVE_FORMAT = 'sal-trace';
export const NATIVE_VERSION = 1;

export interface NativeHeader {
  format: typeof NATIVE_FORMAT;
  version: number;
  /** Suggested block size for hashing the segments (a reader may use another). */
  blockSize?: number;
  description?: string;
}

export interface ToolCall {
  name: string;
  durationS: number;
}

export interface NativeTurn {
  line: number;
  session: string;
  /** Index of the turn within its session (given, or counted). */
  turn: number;
  /** Arrival time, seconds. */
  t: number;
  /** The whole prompt, `append` resolved. */
  input: Segment[];
  inputTokens: number;
  output: Segment;
  tool: ToolCall | null;
}

function segment(v: unknown, where: string): Segment {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new FieldError(`${where} must be an object {"id", "tokens"}, got ${describeValue(v)}`);
  const o = v as Record<string, unknown>;
  const id = o.id;
  if (!((typeof id === 'string' && id.length > 0) || (typeof id === 'number' && Number.isFinite(id))))
    throw new FieldError(`${where}.id must be a non-empty string or a number, got ${describeValue(id)}`);
  const tokens = o.tokens;
  if (typeof tokens !== 'number' || !Number.isSafeInteger(tokens) || tokens < 0)
    throw new FieldError(`${where}.tokens must be a non-negative integer, got ${describeValue(tokens)}`);
  return { id, tokens };
}

function segments(v: unknown, key: string): Segment[] {
  if (!Array.isArray(v))
    throw new FieldError(`"${key}" must be an array of segments, got ${describeValue(v)}`);
  return v.map((s, i) => segment(s, `"${key}"[${i}]`));
}

function isHeader(o: Record<string, unknown>): boolean {
  return 'format' in o && !('session' in o);
}

function header(o: Record<string, unknown>): NativeHeader {
  if (o.format !== NATIVE_FORMAT)
    throw new FieldError(`"format" must be "${NATIVE_FORMAT}", got ${describeValue(o.format)}`);
  if (o.version !== NATIVE_VERSION)
    throw new FieldError(
      `unsupported "version" ${describeValue(o.version)} (this reader knows ${NATIVE_VERSION})`,
    );
  const h: NativeHeader = { format: NATIVE_FORMAT, version: NATIVE_VERSION };
  if (o.blockSize !== undefined) {
    if (typeof o.blockSize !== 'number' || !Number.isSafeInteger(o.blockSize) || o.blockSize < 1)
      throw new FieldError(`"blockSize" must be a positive integer, got ${describeValue(o.blockSize)}`);
    h.blockSize = o.blockSize;
  }
  if (typeof o.description === 'string') h.description = o.description;
  return h;
}

interface SessionState {
  context: Segment[];
  turns: number;
}

/** Streaming reader: resolves `append` against the session's previous turn, validates, calls onTurn. */
export class NativeParser {
  header: NativeHeader | null = null;
  private readonly sessions = new Map<string, SessionState>();
  private seenRecord = false;

  /** Parse one non-blank line. Returns the turn, or null for the header. Throws FieldError when malformed. */
  parse(text: string, line: number): NativeTurn | null {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new FieldError(`not valid JSON (${(e as Error).message})`);
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new FieldError(`expected a JSON object, got ${describeValue(v)}`);
    const o = v as Record<string, unknown>;
    if (isHeader(o)) {
      if (this.seenRecord || this.header) throw new FieldError('a header line may only be the first line');
      this.header = header(o);
      this.seenRecord = true;
      return null;
    }
    this.seenRecord = true;
    const sid = o.session;
    if (!((typeof sid === 'string' && sid.length > 0) || (typeof sid === 'number' && Number.isFinite(sid))))
      throw new FieldError(`"session" must be a non-empty string or a number, got ${describeValue(sid)}`);
    const session = String(sid);
    const t = o.t;
    if (t === undefined) throw new FieldError('missing "t" (arrival time, seconds)');
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0)
      throw new FieldError(`"t" must be a non-negative number of seconds, got ${describeValue(t)}`);
    let turn: number | undefined;
    if (o.turn !== undefined) {
      if (typeof o.turn !== 'number' || !Number.isSafeInteger(o.turn) || o.turn < 0)
        throw new FieldError(`"turn" must be a non-negative integer, got ${describeValue(o.turn)}`);
      turn = o.turn;
    }
    const prev = this.sessions.get(session);
    let input: Segment[];
    if (o.input !== undefined && o.append !== undefined)
      throw new FieldError('give either "input" or "append", not both');
    if (o.input !== undefined) input = segments(o.input, 'input');
    else if (o.append !== undefined) {
      if (!prev) throw new FieldError(`"append" needs an earlier turn of session ${describeValue(session)}`);
      input = prev.context.concat(segments(o.append, 'append'));
    } else
      throw new FieldError('missing "input" (the prompt) or "append" (what is added to the previous turn)');
    const turnIndex = turn ?? (prev ? prev.turns : 0);
    let output: Segment;
    const out = o.output;
    if (out === undefined) throw new FieldError('missing "output" (tokens generated)');
    if (typeof out === 'number') {
      if (!Number.isSafeInteger(out) || out < 0)
        throw new FieldError(
          `"output" must be a non-negative integer or a segment, got ${describeValue(out)}`,
        );
      output = { id: `${session}/out${turnIndex}`, tokens: out };
    } else output = segment(out, '"output"');
    let tool: ToolCall | null = null;
    if (o.tool !== undefined && o.tool !== null) {
      const tv = o.tool as Record<string, unknown>;
      if (typeof tv !== 'object' || Array.isArray(tv))
        throw new FieldError(
          `"tool" must be an object {"name", "durationS"} or null, got ${describeValue(o.tool)}`,
        );
      if (typeof tv.name !== 'string')
        throw new FieldError(`"tool".name must be a string, got ${describeValue(tv.name)}`);
      if (typeof tv.durationS !== 'number' || !Number.isFinite(tv.durationS) || tv.durationS < 0)
        throw new FieldError(
          `"tool".durationS must be a non-negative number, got ${describeValue(tv.durationS)}`,
        );
      tool = { name: tv.name, durationS: tv.durationS };
    }
    let inputTokens = 0;
    for (const s of input) inputTokens += s.tokens;
    this.sessions.set(session, { context: input.concat([output]), turns: turnIndex + 1 });
    return { line, session, turn: turnIndex, t, input, inputTokens, output, tool };
  }
}

export function forEachNative(
  source: LineSource,
  sink: ErrorSink,
  onTurn: (t: NativeTurn) => void,
  parser = new NativeParser(),
): NativeParser {
  for (const [n, text] of numberedLines(source)) {
    if (isBlank(text)) continue;
    let t: NativeTurn | null;
    try {
      t = parser.parse(text, n);
    } catch (e) {
      if (e instanceof FieldError) {
        sink.report(n, e.message);
        continue;
      }
      throw e;
    }
    if (t) onTurn(t);
  }
  return parser;
}

export interface NativeReadResult {
  header: NativeHeader | null;
  turns: NativeTurn[];
  errors: TraceIssue[];
  errorCount: number;
}

export function readNative(source: LineSource, opts: ReadOptions = {}): NativeReadResult {
  const sink = new ErrorSink(opts);
  const turns: NativeTurn[] = [];
  const p = forEachNative(source, sink, (t) => turns.push(t));
  return { header: p.header, turns, errors: sink.issues, errorCount: sink.count };
}
