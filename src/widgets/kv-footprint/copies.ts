/** How a read-out's formula names the extra copies of a KV head (footprint.ts footprintKvCopies). */
import { formatNumber } from '../../lib/format';

/** " × 2 copies (…)" when the GPUs outnumber the KV heads, else nothing: one copy needs no factor. */
export function kvCopiesFactor(copies: number): string {
  return copies > 1
    ? ` × ${formatNumber(copies)} copies (more GPUs than KV heads: each head is stored on ${formatNumber(copies)} GPUs)`
    : '';
}
