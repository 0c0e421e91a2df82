/**
 * The o200k_base vocabulary as a grammar engine wants it: one GPT-2 "byte-level" string per token id
 * (every byte mapped to a printable character, so tokens that are not valid UTF-8 on their own survive the
 * trip into WASM as strings). Pure: the rank table is passed in.
 *
 * Ids follow tiktoken's o200k_base: 199,998 regular tokens (ids 0–199,997), `<|endoftext|>` at 199,999,
 * `<|endofprompt|>` at 200,018, the ids between unused; 200,019 ids in all (tiktoken's `n_vocab`).
 */

/** tiktoken o200k_base: n_vocab and its two special tokens. */
export const O200K_VOCAB_SIZE = 200_019;
export const O200K_EOS = 199_999;
export const O200K_SPECIALS: ReadonlyArray<readonly [number, string]> = [
  [199_999, '<|endoftext|>'],
  [200_018, '<|endofprompt|>'],
];

/** GPT-2's bytes_to_unicode: byte value → the printable character standing for it. */
export function bytesToUnicodeTable(): string[] {
  const bs: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = bs.slice();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n);
      n++;
    }
  }
  const t = new Array<string>(256);
  bs.forEach((b, i) => {
    t[b] = String.fromCharCode(cs[i]);
  });
  return t;
}

/** A rank-table entry as gpt-tokenizer ships it: the token's text if it is valid UTF-8, else its raw bytes. */
export type RankEntry = string | readonly number[];

export interface Vocab {
  /** Byte-level strings for the engine, '' for unused ids, names for special tokens. */
  encoded: string[];
  /** What a person should see for each id: the text, or the bytes as \xNN escapes when it is not valid UTF-8. */
  display: string[];
}

function escapeBytes(bytes: readonly number[]): string {
  return bytes.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
}

/** Build the engine's vocabulary from a rank table indexed by id (gpt-tokenizer's bpeRanks). */
export function buildByteLevelVocab(
  ranks: ArrayLike<RankEntry | undefined>,
  vocabSize = O200K_VOCAB_SIZE,
  specials = O200K_SPECIALS,
): Vocab {
  const table = bytesToUnicodeTable();
  const enc = new TextEncoder();
  const encoded = new Array<string>(vocabSize).fill('');
  const display = new Array<string>(vocabSize).fill('');
  const n = Math.min(ranks.length, vocabSize);
  for (let id = 0; id < n; id++) {
    const e = ranks[id];
    if (e === undefined || e === null) continue;
    const bytes = typeof e === 'string' ? enc.encode(e) : e;
    let s = '';
    for (let i = 0; i < bytes.length; i++) s += table[bytes[i]];
    encoded[id] = s;
    display[id] = typeof e === 'string' ? e : escapeBytes(e);
  }
  for (const [id, name] of specials) {
    if (id < vocabSize) {
      encoded[id] = name;
      display[id] = name;
    }
  }
  return { encoded, display };
}

/** Number of set bits in a token bitmask (bit `id` of word `id >> 5` set ⇔ token allowed), ids < vocabSize. */
export function countAllowed(mask: Int32Array, vocabSize: number): number {
  let c = 0;
  const words = Math.ceil(vocabSize / 32);
  for (let w = 0; w < words; w++) {
    let v = mask[w];
    if (w === words - 1 && vocabSize % 32 !== 0) v &= (1 << (vocabSize % 32)) - 1;
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    c += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return c;
}

export function isAllowed(mask: Int32Array, id: number): boolean {
  return ((mask[id >> 5] >>> (id & 31)) & 1) === 1;
}

/** Up to `k` allowed ids, spread evenly over the allowed set (first, last and between), for a sample. */
export function sampleAllowed(mask: Int32Array, vocabSize: number, k: number): number[] {
  const all: number[] = [];
  for (let id = 0; id < vocabSize; id++) if (isAllowed(mask, id)) all.push(id);
  if (all.length <= k) return all;
  const out: number[] = [];
  for (let i = 0; i < k; i++) out.push(all[Math.round((i * (all.length - 1)) / (k - 1))]);
  return out;
}
