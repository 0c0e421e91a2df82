/**
 * A prompt's last block is created partial (its hash already covers the output that decoding will write into
 * it). When the sequence grows past it, the block is full: a later lookup must report all its tokens, or every
 * turn of an agent session loses (block size − prompt mod block size) tokens of reuse, cumulatively.
 */
import { describe, expect, it } from 'vitest';
import { KvCache, segmentBlockHashes } from '../src/sim/engine/kvcache';

const B = 16;

describe('KvCache: a partial last block filled by decoding', () => {
  it('counts as a full block once the sequence extends past it', () => {
    const c = new KvCache({ blockSize: B, bytesPerBlock: 1, tiers: [{ name: 'hbm', capacityBlocks: 64 }] });
    // Turn 0: prompt of 20 tokens (16 + 4), output of 30 tokens: 50 tokens = blocks of 16, 16, 16, 2.
    const turn0 = segmentBlockHashes(
      [
        { id: 'sys', tokens: 20 },
        { id: 'out0', tokens: 30 },
      ],
      B,
    ).hashes;
    expect(c.acquire('s', turn0.slice(0, 2), { tokens: 20 }).ok).toBe(true); // prompt: 16 + 4
    c.commit('s', 1);
    // Decoding fills block 1 and needs block 2 (tokens 32..47), then block 3.
    expect(c.extend('s', turn0.slice(2, 3), { tokens: 48 }).ok).toBe(true);
    expect(c.extend('s', turn0.slice(3, 4), { tokens: 50 }).ok).toBe(true);
    c.commit('s', 3); // 49 tokens computed: 3 full blocks
    c.release('s', 'cache');
    expect(c.checkInvariants()).toEqual([]);

    // Turn 1 re-sends prompt + output + a tool result: the 3 full blocks (48 tokens) are its cached prefix.
    const turn1 = segmentBlockHashes(
      [
        { id: 'sys', tokens: 20 },
        { id: 'out0', tokens: 30 },
        { id: 'res0', tokens: 10 },
      ],
      B,
    ).hashes;
    expect(c.lookup(turn1)).toMatchObject({ blocks: 3, tokens: 48 });
    const r = c.acquire('s', turn1, { tokens: 60 });
    expect(r.ok && r.hit.tokens).toBe(48);
    expect(r.ok && r.computeTokens).toBe(12);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('a failed extend changes nothing', () => {
    const c = new KvCache({ blockSize: B, bytesPerBlock: 1, tiers: [{ name: 'hbm', capacityBlocks: 2 }] });
    const h = segmentBlockHashes([{ id: 'p', tokens: 40 }], B).hashes; // 16 + 16 + 8
    expect(c.acquire('a', h.slice(0, 2), { tokens: 20 }).ok).toBe(true);
    const before = c.occupancy()[0];
    expect(c.extend('a', h.slice(2, 3), { tokens: 40 }).ok).toBe(false); // HBM holds 2 blocks
    expect(c.occupancy()[0]).toEqual(before);
    expect(c.checkInvariants()).toEqual([]);
  });
});
