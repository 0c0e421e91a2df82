/**
 * An in-place scanner for Mooncake lines of the usual shape, over UTF-8 bytes (a text is scanned as its
 * encoding, table.ts): a line is read without decoding it or making a string of it. Any other line (extra
 * fields, floats, errors, non-ASCII) goes back to the caller, which parses it with JSON.parse and the full
 * validation: the scanner never accepts a line the full parser would reject, and reads every line it accepts as
 * the full parser does (tests/trace.test.ts checks it with fast-check).
 *
 * The shape accepted: exactly the four fields, each once, in any order, with non-negative integer values of at
 * most 15 digits (so always safe integers), JSON whitespace other than newlines anywhere between tokens.
 *
 * The scanner is one function over local variables, not methods over fields: a command-line run reads the
 * trace once, mostly before the JIT has optimised anything, and the interpreter is several times faster on
 * locals.
 */

const KEYS = ['timestamp', 'input_length', 'output_length', 'hash_ids'];

/** What a scanner read from its last accepted line; `ids[0..count)` are the raw `hash_ids`. */
export class ScannedLine {
  timestamp = 0;
  input = 0;
  output = 0;
  // Small at first: it grows in the first lines, while the interpreter still collects type feedback (see
  // builder.ts), not for the first time in optimised code.
  ids = new Float64Array(4);
  count = 0;
}

/**
 * Every byte it accepts is ASCII, where UTF-8 and the decoded text agree, so a line it accepts reads as its
 * decoded text would. Reading a typed array element is a load where `charCodeAt` is a call, which is what a cold
 * run mostly pays for.
 *
 * It needs no line end: no byte it accepts is a newline (whitespace here is space, tab and carriage return),
 * so it stops at the newline, and past the array's end a read is undefined, which matches nothing (in the
 * digit loops `undefined - 48` is NaN, which ends the run). That saves the caller a search per line and the
 * scanner a bounds test per byte.
 */
export class ByteScanner {
  constructor(
    private readonly s: Uint8Array,
    readonly out = new ScannedLine(),
  ) {}
  /** Reads the line starting at `start`; returns where it ends (its newline, or the array's end), or −1. */
  scan(start: number): number {
    const s = this.s;
    const out = this.out;
    let p = start;
    let c: number;
    let ids = out.ids;
    let count = 0;
    let timestamp = 0;
    let input = 0;
    let output = 0;
    while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
    if (c !== 123 /* { */) return -1;
    p++;
    let seen = 0;
    for (;;) {
      while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
      if (c !== 34 /* " */) return -1;
      // The key, told by its first letter and then checked letter by letter.
      c = s[p + 1];
      const k = c === 116 ? 0 : c === 105 ? 1 : c === 111 ? 2 : c === 104 ? 3 : 4;
      if (k === 4 || seen & (1 << k)) return -1;
      const key = KEY_BYTES[k];
      const n = key.length;
      for (let i = 1; i < n; i++) if (s[p + 1 + i] !== key[i]) return -1;
      if (s[p + 1 + n] !== 34) return -1;
      seen |= 1 << k;
      p += n + 2;
      while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
      if (c !== 58 /* : */) return -1;
      p++;
      while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
      const list = k === 3;
      let empty = false;
      if (list) {
        if (c !== 91 /* [ */) return -1;
        p++;
        while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
        if (c === 93 /* ] */) {
          p++;
          empty = true;
        }
      }
      while (!empty) {
        const p0 = p;
        let v = 0;
        let d = s[p] - 48;
        while (d >= 0 && d <= 9) {
          v = v * 10 + d;
          d = s[++p] - 48;
        }
        const digits = p - p0;
        if (digits === 0 || digits > 15 || (digits > 1 && s[p0] === 48)) return -1;
        if (!list) {
          if (k === 0) timestamp = v;
          else if (k === 1) input = v;
          else output = v;
          break;
        }
        if (count === ids.length) {
          const g = new Float64Array(ids.length * 2);
          g.set(ids);
          out.ids = ids = g;
        }
        ids[count++] = v;
        while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
        p++;
        if (c === 93) break;
        if (c !== 44 /* , */) return -1;
        while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
      }
      while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
      p++;
      if (c === 125 /* } */) break;
      if (c !== 44) return -1;
    }
    while ((c = s[p]) === 32 || c === 9 || c === 13) p++;
    if (seen !== 15 || (c !== 10 && p !== s.length)) return -1;
    out.timestamp = timestamp;
    out.input = input;
    out.output = output;
    out.count = count;
    return p;
  }
}

const KEY_BYTES = KEYS.map((k) => Uint8Array.from(k, (ch) => ch.charCodeAt(0)));
