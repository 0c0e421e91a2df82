import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  detectFormat,
  idealHitRatio,
  lruHitRatio,
  mooncakeTable,
  nativeTable,
  numberedLines,
  quantileSorted,
  readMooncake,
  readNative,
  readTraceTable,
  summarize,
  TraceError,
  traceStats,
} from '../src/sim/engine/trace';
import { KvCache, segmentBlockHashes } from '../src/sim/engine/kvcache';

const utf8 = (s: string) => new TextEncoder().encode(s);
const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), 'utf8');
const MOONCAKE_DIR = fileURLToPath(new URL('../../shared/data/mooncake/', import.meta.url));
const CONVERSATION = MOONCAKE_DIR + 'conversation_trace.jsonl';
const SYNTHETIC = MOONCAKE_DIR + 'synthetic_trace.jsonl';
const haveConversation = existsSync(CONVERSATION);
const haveSynthetic = existsSync(SYNTHETIC);
if (!haveConversation) console.warn(`trace.test: skipping real-trace checks, ${CONVERSATION} is absent`);

describe('line sources', () => {
  it('numbers lines from 1, strips \\r, and accepts a string or an iterable of lines', () => {
    expect([...numberedLines('a\r\nb\n\nc')]).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, ''],
      [4, 'c'],
    ]);
    expect([...numberedLines(['a\n', 'b\r\n'])]).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });
});

describe('Mooncake reader', () => {
  it('reads records', () => {
    const r = readMooncake(fixture('mooncake-tiny.jsonl'));
    expect(r.errorCount).toBe(0);
    expect(r.requests).toHaveLength(5);
    expect(r.requests[2]).toEqual({
      line: 3,
      timestampMs: 1000,
      inputLength: 1500,
      outputLength: 10,
      hashIds: [1, 3, 4],
    });
  });

  it('skip mode collects each malformed line with its number and reason, and keeps the rest', () => {
    const r = readMooncake(fixture('mooncake-bad.jsonl'), { onError: 'skip' });
    expect(r.requests.map((x) => x.line)).toEqual([1, 2, 4, 8, 10]);
    expect(r.errorCount).toBe(4);
    expect(r.errors.map((e) => e.line)).toEqual([3, 5, 6, 9]);
    expect(r.errors[0].message).toMatch(/not valid JSON/);
    expect(r.errors[1].message).toBe('missing "input_length"');
    expect(r.errors[2].message).toBe('"hash_ids"[1] must be a non-negative integer, got "x"');
    expect(r.errors[3].message).toMatch(/expected a JSON object/);
    // maxErrors keeps fewer details but counts them all
    const few = readMooncake(fixture('mooncake-bad.jsonl'), { onError: 'skip', maxErrors: 1 });
    expect(few.errors).toHaveLength(1);
    expect(few.errorCount).toBe(4);
  });

  it('stop mode throws a TraceError at the first malformed line', () => {
    let err: unknown;
    try {
      readMooncake(fixture('mooncake-bad.jsonl'), { onError: 'stop' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TraceError);
    expect((err as TraceError).line).toBe(3);
    expect((err as TraceError).message).toMatch(/^line 3: not valid JSON/);
  });

  it('the in-place scanner (whole text) and JSON.parse (line iterator) agree on odd but valid and invalid lines', () => {
    const lines = [
      '{"timestamp": 0, "input_length": 10, "output_length": 1, "hash_ids": [1]}',
      '  {"hash_ids":[2,3],"output_length":0,"input_length":600,"timestamp":12}  ',
      '{"timestamp": 1.5, "input_length": 10, "output_length": 1, "hash_ids": [1]}',
      '{"timestamp": 2, "input_length": 10, "output_length": 1, "hash_ids": [], "extra": {"a": [1]}}',
      '{"timestamp": 3, "input_length": 10, "output_length": 1, "hash_ids": [01]}',
      '{"timestamp": 4, "input_length": 10, "input_length": 11, "output_length": 1, "hash_ids": [1]}',
      '{"timestamp": 5, "input_length": 10, "output_length": 1, "hash_ids": [1,]}',
      '{"timestamp": 6, "input_length": 1e3, "output_length": 1, "hash_ids": [1]}',
      '{"timestamp": 7, "input_length": 10, "output_length": 1, "hash_ids": [-1]}',
      '{"timestamp": 8, "input_length": 10, "output_length": 1, "hash_ids": [123456789012345678]}',
      '{"timestamp": 9, "input_length": 10, "output_length": 1} ',
      '{"timestamp": 10, "input_length": 10, "output_length": 1, "hash_ids": [4]} x',
      '\t{ "timestamp" : 11 , "input_length" : 10 , "output_length" : 1 , "hash_ids" : [ 5 , 6 ] }\r',
    ];
    const whole = mooncakeTable(lines.join('\n'), { onError: 'skip' });
    const iter = mooncakeTable(lines, { onError: 'skip' });
    expect(whole.table).toEqual(iter.table);
    expect(whole.errors).toEqual(iter.errors);
    expect(whole.table.line).toEqual(Int32Array.from([1, 2, 3, 4, 6, 8, 13]));
    expect(whole.errors.map((e) => e.line)).toEqual([5, 7, 9, 10, 11, 12]);
  });

  it('the in-place scanner agrees with JSON.parse on random near-Mooncake lines (keys, spacing, numbers)', () => {
    const ws = fc.constantFrom('', ' ', '\t', '  ', '\r');
    const rarely = fc.constantFrom(false, false, false, false, true);
    const num = fc.oneof(
      { weight: 6, arbitrary: fc.nat({ max: 10_000 }).map(String) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '0',
          '00',
          '01',
          '-1',
          '1.5',
          '1e3',
          '123456789012345',
          '1234567890123456',
          '',
        ),
      },
    );
    const key = fc.constantFrom(
      'timestamp',
      'input_length',
      'output_length',
      'hash_ids',
      'timestampx',
      'hash_id',
      'input_lengt',
      'extra',
      // the real keys' length and first letter, another letter inside
      'timestamq',
      'hash_idz',
      'output_lenhth',
    );
    const value = (k: string) =>
      k.startsWith('hash')
        ? fc
            .tuple(fc.array(fc.tuple(ws, num, ws), { maxLength: 4 }), rarely)
            .map(([xs, trailing]) => `[${xs.map(([a, n, b]) => a + n + b).join(',')}${trailing ? ',' : ''}]`)
        : num;
    const field = (k: string) => fc.tuple(ws, value(k), ws).map(([a, v, b]) => `${a}"${k}"${a}:${b}${v}`);
    const real = ['timestamp', 'input_length', 'output_length', 'hash_ids'];
    // Mostly the four real keys in any order (often a valid line), sometimes any keys.
    const keys = fc.oneof(
      { weight: 4, arbitrary: fc.shuffledSubarray(real, { minLength: 4 }) },
      { weight: 1, arbitrary: fc.shuffledSubarray(real, { minLength: 3, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(key, { minLength: 3, maxLength: 5 }) },
    );
    const line = fc
      .tuple(
        ws,
        keys.chain((ks) => fc.tuple(...ks.map(field))),
        ws,
        rarely,
      )
      .map(([a, fs, b, open]) => `${a}{${fs.join(',')}${open ? '' : '}'}${b}`);
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const whole = mooncakeTable(lines.join('\n'), { onError: 'skip' });
        const iter = mooncakeTable(lines, { onError: 'skip' });
        expect(whole.table).toEqual(iter.table);
        expect(whole.errors.map((e) => e.line)).toEqual(iter.errors.map((e) => e.line));
        // the byte scanner reads the same lines the same way
        const bytes = mooncakeTable(utf8(lines.join('\n')), { onError: 'skip' });
        expect(bytes.table).toEqual(whole.table);
        expect(bytes.errors).toEqual(whole.errors);
        accepted += whole.table.count;
      }),
      { numRuns: 400 },
    );
    expect(accepted).toBeGreaterThan(50); // the property saw valid lines, not only rejections
  });

  it('a text with a lone surrogate (no UTF-8 form) reads as its lines do, the lone surrogate kept in the message', () => {
    const valid = '{"timestamp": 1, "input_length": 600, "output_length": 2, "hash_ids": [7, 8]}';
    const bad = '{"timestamp": 2, "input_length": "\uD800", "output_length": 1, "hash_ids": [1]}';
    const text = [valid, bad, valid].join('\n');
    const whole = mooncakeTable(text, { onError: 'skip' });
    const lines = mooncakeTable([valid, bad, valid], { onError: 'skip' });
    expect(whole.table).toEqual(lines.table);
    expect(whole.table.count).toBe(2);
    expect(whole.errors).toEqual(lines.errors);
    expect(whole.errors.map((e) => e.line)).toEqual([2]);
    expect(whole.errors[0].message).toContain('\\ud800'); // quoted as JSON quotes it
  });

  it('reads UTF-8 bytes as their decoded text: the same table, errors and messages, byte noise included', () => {
    const valid = '{"timestamp": 1, "input_length": 600, "output_length": 2, "hash_ids": [7, 8]}';
    // pieces of lines: valid ones, JSON tokens, non-ASCII text, lone and truncated UTF-8 sequences, a BOM
    const piece = fc.oneof(
      { weight: 1, arbitrary: fc.constant(utf8(valid)) },
      {
        weight: 4,
        arbitrary: fc
          .constantFrom('{', '}', '"hash_ids"', ':', '[', ']', ',', ' ', '\r', '\n', '1', '"é"', '☃', '𝄞')
          .map(utf8),
      },
      { weight: 2, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom([0xef, 0xbb, 0xbf], [0xe2, 0x82], [0xc3], [0x80], [0xf0, 0x9d, 0x84])
          .map((b) => Uint8Array.from(b)),
      },
    );
    const decode = (b: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
    let accepted = 0;
    // a line: a valid one (sometimes with a \r), or pieces
    const line = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom([utf8(valid)], [utf8(valid + '\r')]) },
      { weight: 3, arbitrary: fc.array(piece, { maxLength: 6 }) },
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const parts = lines.flatMap((l, i) => (i ? [Uint8Array.of(10), ...l] : l));
        const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
        const text = decode(bytes);
        const fromBytes = mooncakeTable(bytes, { onError: 'skip' });
        const fromText = mooncakeTable(text, { onError: 'skip' });
        expect(fromBytes.table).toEqual(fromText.table);
        expect(fromBytes.errors).toEqual(fromText.errors);
        expect(fromBytes.errorCount).toBe(fromText.errorCount);
        expect([...numberedLines(bytes)]).toEqual([...numberedLines(text)]);
        const detect = (s: string | Uint8Array) => {
          try {
            return detectFormat(s);
          } catch (e) {
            return (e as Error).message;
          }
        };
        expect(detect(bytes)).toBe(detect(text));
        accepted += fromBytes.table.count;
      }),
      { numRuns: 500, seed: 5 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('rejects negative or fractional lengths and bad timestamps', () => {
    const bad = [
      '{"timestamp": -1, "input_length": 1, "output_length": 1, "hash_ids": [1]}',
      '{"timestamp": 0, "input_length": 1.5, "output_length": 1, "hash_ids": [1]}',
      '{"timestamp": 0, "input_length": 1, "output_length": -2, "hash_ids": [1]}',
      '{"timestamp": "0", "input_length": 1, "output_length": 1, "hash_ids": [1]}',
      '{"timestamp": 0, "input_length": 1, "output_length": 1, "hash_ids": 1}',
    ];
    const r = readMooncake(bad.join('\n'), { onError: 'skip' });
    expect(r.requests).toHaveLength(0);
    expect(r.errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5]);
    expect(r.errors[1].message).toMatch(/"input_length" must be a non-negative integer, got 1.5/);
  });
});

describe('native reader', () => {
  it('resolves append into the whole context (previous input + output + appended)', () => {
    const r = readNative(fixture('native-tiny.jsonl'));
    expect(r.header).toMatchObject({ format: 'sal-trace', version: 1, blockSize: 4 });
    expect(r.turns).toHaveLength(4);
    const s2t1 = r.turns[3];
    expect(s2t1.session).toBe('s2');
    expect(s2t1.turn).toBe(1);
    expect(s2t1.input).toEqual([
      { id: 'sys', tokens: 6 },
      { id: 's2/task', tokens: 2 },
      { id: 's2/out0', tokens: 3 },
      { id: 's2/tool0', tokens: 1 },
    ]);
    expect(s2t1.inputTokens).toBe(12);
    expect(r.turns[0].tool).toEqual({ name: 'bash', durationS: 0.5 });
    expect(r.turns[2].tool).toBeNull();
    expect(r.turns[3].output).toEqual({ id: 's2/out1', tokens: 5 });
  });

  it('reports malformed turns with line numbers', () => {
    const lines = [
      '{"session": "a", "t": 0, "append": [{"id": "x", "tokens": 1}], "output": 1}',
      '{"session": "a", "t": 0, "input": [{"id": "x", "tokens": 1}], "append": [], "output": 1}',
      '{"session": "a", "t": 0, "input": [{"id": "x", "tokens": -3}], "output": 1}',
      '{"session": "a", "input": [], "output": 1}',
      '{"session": "a", "t": 1, "input": [{"id": "x", "tokens": 2}], "output": 1, "tool": {"name": "t"}}',
      '{"format": "sal-trace", "version": 1}',
      '{"session": "a", "t": 2, "input": [{"id": "x", "tokens": 2}], "output": 4}',
    ];
    const r = readNative(lines.join('\n'), { onError: 'skip' });
    expect(r.errors).toEqual([
      { line: 1, message: '"append" needs an earlier turn of session "a"' },
      { line: 2, message: 'give either "input" or "append", not both' },
      { line: 3, message: '"input"[0].tokens must be a non-negative integer, got -3' },
      { line: 4, message: 'missing "t" (arrival time, seconds)' },
      { line: 5, message: '"tool".durationS must be a non-negative number, got nothing' },
      { line: 6, message: 'a header line may only be the first line' },
    ]);
    expect(r.turns.map((t) => t.line)).toEqual([7]);
    expect(() => readNative('{"format": "sal-trace", "version": 2}')).toThrow(
      /line 1: unsupported "version" 2/,
    );
  });
});

describe('format detection', () => {
  it('tells the formats apart from the first non-blank line', () => {
    expect(detectFormat(fixture('mooncake-tiny.jsonl'))).toBe('mooncake');
    expect(detectFormat(fixture('native-tiny.jsonl'))).toBe('native');
    expect(detectFormat('\n{"session": 1, "t": 0}')).toBe('native');
    expect(() => detectFormat('\n\n{"foo": 1}')).toThrow(/line 3: cannot detect/);
    expect(() => detectFormat('')).toThrow(TraceError);
  });
});

describe('statistics', () => {
  it('percentiles interpolate between order statistics (numpy default)', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([10], 0.99)).toBe(10);
    expect(summarize([300, 1000, 1024, 1500, 1000])).toEqual({
      mean: 964.8,
      median: 1000,
      p90: 1024 + 0.6 * 476,
      p99: 1024 + 0.96 * 476,
    });
  });

  // tests/fixtures/mooncake-tiny.jsonl, block size 512:
  //   t=0     1000 tok [1,2]    blocks of 512 + 488 tokens
  //   t=0.5s  1024 tok [1,3]    512 + 512
  //   t=1s    1500 tok [1,3,4]  512 + 512 + 476
  //   t=2s     300 tok [5]      300
  //   t=4s    1000 tok [1,2]    512 + 488
  it('hand-computed statistics on the tiny Mooncake fixture', () => {
    const { table } = mooncakeTable(fixture('mooncake-tiny.jsonl'));
    const s = traceStats(table, { lruCapacities: [1, 2, 100] });
    expect(s.requests).toBe(5);
    expect(s.durationS).toBe(4);
    expect(s.arrivalRatePerS).toBe(1.25);
    expect(s.inputTokens.mean).toBeCloseTo(964.8, 10);
    expect(s.inputTokens.median).toBe(1000);
    expect(s.inputTokens.p90).toBeCloseTo(1309.6, 10);
    expect(s.inputTokens.p99).toBeCloseTo(1480.96, 10);
    expect(s.outputTokens).toEqual({ mean: 92, median: 100, p90: 160, p99: 196 });
    expect(s.blocks).toEqual({ blockSize: 512, total: 10, unique: 5, lengthMismatches: 0 });
    // ideal: r2 hits [1] (512 tok), r3 hits [1,3] (1024), r5 hits [1,2] (512 + 488): 5 of 10 blocks, 2536 of 4824 tokens
    expect(s.idealHitRatio.blocks).toBe(0.5);
    expect(s.idealHitRatio.tokens).toBeCloseTo(2536 / 4824, 12);
    // LRU, 2 blocks, each request's blocks used last to first (LRU → MRU):
    //   r1 → [2,1]; r2 hits 1 → [3,1]; r3 hits 1,3 → [3,1]; r4 miss → [1,5]; r5 hits 1 → 4 blocks, 2048 tokens
    expect(s.lru[1]).toEqual({ capacityBlocks: 2, hitRatio: { blocks: 0.4, tokens: 2048 / 4824 } });
    // LRU, 1 block: only the first block survives each request: r2 and r3 hit [1] → 2 blocks, 1024 tokens
    expect(s.lru[0].hitRatio).toEqual({ blocks: 0.2, tokens: 1024 / 4824 });
    // a capacity above the unique blocks is the ideal cache
    expect(s.lru[2].hitRatio).toEqual(s.idealHitRatio);
  });

  it('the malformed fixture in skip mode gives the same statistics as the clean one', () => {
    const clean = traceStats(mooncakeTable(fixture('mooncake-tiny.jsonl')).table, { lruCapacities: [2] });
    const r = mooncakeTable(fixture('mooncake-bad.jsonl'), { onError: 'skip' });
    expect(r.errorCount).toBe(4);
    expect(traceStats(r.table, { lruCapacities: [2] })).toEqual(clean);
  });

  it('counts a partial last block by its tokens, and flags traces whose hash_ids do not match the length', () => {
    // 600 tokens = one full block + 88 (nothing cached yet); 2000 tokens with only 2 hash_ids: both hit, and by its
    // own length each holds 512 tokens; the other 976 tokens are in no block, so they count as misses
    const text = [
      '{"timestamp": 0, "input_length": 600, "output_length": 1, "hash_ids": [7, 8]}',
      '{"timestamp": 1, "input_length": 2000, "output_length": 1, "hash_ids": [7, 8]}',
    ].join('\n');
    const { table } = mooncakeTable(text);
    expect(table.lengthMismatches).toBe(1);
    const ideal = idealHitRatio(table);
    expect(ideal.blocks).toBe(0.5);
    expect(ideal.tokens).toBeCloseTo(1024 / 2600, 12);
  });

  // tests/fixtures/native-tiny.jsonl, block size 4 (from its header):
  //   s1 t=0   sys6 task3                 → [sys0-4] [sys4-6+task0-2] [task2-3]         3 blocks, 9 tok
  //   s2 t=0.5 sys6 task2                 → [sys0-4]✓ [sys4-6+task0-2]                  2 blocks, 8 tok, hit 1 (4)
  //   s1 t=1   sys6 task3 out4 tool3      → ✓ ✓ [task2-3+out0-3] [out3-4+tool0-3]       4 blocks, 16 tok, hit 2 (8)
  //   s2 t=2   sys6 task2 out3 tool1      → ✓ ✓ [out0-3+tool0-1]                        3 blocks, 12 tok, hit 2 (8)
  it('hand-computed statistics on the tiny native fixture (segments hashed into blocks)', () => {
    const { table } = nativeTable(fixture('native-tiny.jsonl'));
    expect(table.blockSize).toBe(4);
    const s = traceStats(table, { lruCapacities: [2] });
    expect(s.requests).toBe(4);
    expect(s.sessions).toBe(2);
    expect(s.durationS).toBe(2);
    expect(s.arrivalRatePerS).toBe(2);
    expect(s.inputTokens).toEqual({ mean: 11.25, median: 10.5, p90: 12 + 0.7 * 4, p99: 12 + 0.97 * 4 });
    expect(s.outputTokens.mean).toBe(3.5);
    expect(s.blocks).toMatchObject({ total: 12, unique: 7 });
    expect(s.idealHitRatio).toEqual({ blocks: 5 / 12, tokens: 20 / 45 });
    // LRU 2: the second block of each session is evicted between its turns; every later request hits only [sys0-4]
    expect(s.lru[0].hitRatio).toEqual({ blocks: 3 / 12, tokens: 12 / 45 });
    // a different block size re-cuts the same segments
    expect(nativeTable(fixture('native-tiny.jsonl'), { blockSize: 6 }).table.blocks.length).toBe(
      2 + 2 + 3 + 2,
    );
  });

  it('replays in arrival order even when the file is not sorted', () => {
    const sorted = fixture('mooncake-tiny.jsonl').trim().split('\n');
    const shuffled = [sorted[4], sorted[2], sorted[0], sorted[3], sorted[1]].join('\n');
    const a = traceStats(mooncakeTable(sorted.join('\n')).table, { lruCapacities: [1, 2] });
    const b = traceStats(mooncakeTable(shuffled).table, { lruCapacities: [1, 2] });
    expect(b.idealHitRatio).toEqual(a.idealHitRatio);
    expect(b.lru).toEqual(a.lru);
  });

  it('a line iterator gives the same table as the whole text', () => {
    const text = fixture('native-tiny.jsonl');
    expect(nativeTable(text.split('\n')).table).toEqual(nativeTable(text).table);
    expect(readTraceTable(text).table).toEqual(nativeTable(text).table);
  });

  it("the example trace shipped for the browser parses cleanly and shares the agents' head", () => {
    const text = readFileSync(
      fileURLToPath(new URL('../public/traces/example-agent.jsonl', import.meta.url)),
      'utf8',
    );
    const r = readNative(text);
    expect(r.errorCount).toBe(0);
    expect(r.turns.length).toBe(9);
    const s = traceStats(nativeTable(text).table);
    expect(s.sessions).toBe(3);
    expect(s.idealHitRatio.tokens).toBeGreaterThan(0.5);
  });

  it('the typed-array LRU agrees with a one-tier KvCache replay (property)', () => {
    const chains = Array.from(
      { length: 5 },
      (_, k) =>
        segmentBlockHashes(
          [
            { id: `sys${k % 2}`, tokens: 40 },
            { id: `doc${k}`, tokens: 60 },
          ],
          16,
        ).hashes,
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.tuple(fc.nat(4), fc.integer({ min: 1, max: 7 })), { minLength: 1, maxLength: 60 }),
        (cap, reqs) => {
          const lines = reqs.map(([c, len], i) =>
            JSON.stringify({
              timestamp: i,
              input_length: len * 16,
              output_length: 1,
              hash_ids: chains[c].slice(0, len),
            }),
          );
          const { table } = mooncakeTable(lines.join('\n'), { blockSize: 16 });
          const fast = lruHitRatio(table, cap);
          let hit = 0;
          let total = 0;
          if (cap > 0) {
            const kv = new KvCache({
              blockSize: 16,
              bytesPerBlock: 1,
              tiers: [{ name: 'hbm', capacityBlocks: cap }],
            });
            for (const [c, len] of reqs) {
              const h = chains[c].slice(0, len);
              hit += kv.lookup(h).blocks;
              total += len;
              kv.insert(h);
            }
            expect(fast.blocks).toBeCloseTo(hit / total, 12);
          } else expect(fast.blocks).toBe(0);
          expect(fast.blocks).toBeLessThanOrEqual(idealHitRatio(table).blocks + 1e-12);
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });
});

describe('real Mooncake traces (skipped when ../shared/data/mooncake is absent)', () => {
  it.skipIf(!haveConversation)(
    "conversation trace: 12,031 requests, avg input ≈ 12,035, avg output ≈ 343, ideal cache ratio ≈ 40% (FAST'25 Table 2)",
    () => {
      const { table, errorCount } = mooncakeTable(readFileSync(CONVERSATION, 'utf8'));
      expect(errorCount).toBe(0);
      const s = traceStats(table, { lruCapacities: [1000, 10_000, 100_000, 1_000_000] });
      expect(s.requests).toBe(12_031);
      expect(s.blocks.total).toBe(288_500);
      expect(s.blocks.lengthMismatches).toBe(0);
      expect(Math.abs(s.inputTokens.mean - 12_035)).toBeLessThan(1);
      expect(Math.abs(s.outputTokens.mean - 343)).toBeLessThan(1);
      expect(s.durationS).toBeGreaterThan(3000);
      expect(s.durationS).toBeLessThanOrEqual(3600);
      // Table 2 says 40%; replaying prefixes in arrival order gives 36.6% of blocks, 37.4% of tokens
      expect(s.idealHitRatio.blocks).toBeGreaterThan(0.35);
      expect(s.idealHitRatio.blocks).toBeLessThan(0.42);
      expect(s.idealHitRatio.tokens).toBeGreaterThan(0.35);
      expect(s.idealHitRatio.tokens).toBeLessThan(0.42);
      // the line-iterator path (JSON.parse per line) builds the same table as the in-place scanner, and so
      // does the scanner over the file's bytes (what the command line reads)
      expect(mooncakeTable(readFileSync(CONVERSATION, 'utf8').split('\n')).table).toEqual(table);
      expect(mooncakeTable(readFileSync(CONVERSATION)).table).toEqual(table);
      // a one-tier KvCache driven like a replica (acquire, commit, release per request) is the same LRU
      const kv = new KvCache({
        blockSize: 512,
        bytesPerBlock: 1,
        tiers: [{ name: 'hbm', capacityBlocks: 10_000 }],
      });
      let hit = 0;
      for (let i = 0; i < table.count; i++) {
        const h = table.blocks.subarray(table.blockStart[i], table.blockStart[i + 1]);
        const a = kv.acquire(i, h, { tokens: table.inputTokens[i] });
        if (!a.ok) throw new Error(a.message);
        hit += a.hit.blocks;
        kv.commit(i);
        kv.release(i);
      }
      expect(hit / table.blocks.length).toBeCloseTo(s.lru[1].hitRatio.blocks, 12);
      expect(kv.checkInvariants()).toEqual([]);
      // LRU hit ratios grow with capacity and reach the ideal once everything fits (182,790 unique blocks)
      const r = s.lru.map((l) => l.hitRatio.blocks);
      for (let i = 1; i < r.length; i++) expect(r[i]).toBeGreaterThan(r[i - 1] - 1e-12);
      expect(r[0]).toBeLessThan(0.1);
      expect(s.lru[3].hitRatio).toEqual(s.idealHitRatio);
    },
  );

  it.skipIf(!haveSynthetic)(
    'synthetic trace: 3,993 requests, avg input ≈ 15,325, avg output ≈ 149, ideal ≈ 66%',
    () => {
      const { table } = mooncakeTable(readFileSync(SYNTHETIC, 'utf8'));
      const s = traceStats(table);
      expect(s.requests).toBe(3993);
      expect(Math.abs(s.inputTokens.mean - 15_325)).toBeLessThan(1);
      expect(Math.abs(s.outputTokens.mean - 149)).toBeLessThan(1);
      expect(s.idealHitRatio.tokens).toBeGreaterThan(0.6);
      expect(s.idealHitRatio.tokens).toBeLessThan(0.7);
    },
  );
});
