/** How a read-out's formula names the extra copies of a replica's KV (cost.ts kvReplication). */
import { formatNumber } from '../../lib/format';

/**
 * " × 2 copies (…)" when the replica's GPUs hold more than one copy, else nothing: one copy needs no factor. An MLA
 * latent is held whole by every GPU under tensor parallelism; a GQA head is stored on several GPUs only when the
 * GPUs outnumber the KV heads.
 */
export function kvCopiesFactor(copies: number, attention: 'gqa' | 'mla' = 'gqa'): string {
  if (!(copies > 1)) return '';
  const why =
    attention === 'mla'
      ? 'every GPU holds the whole latent'
      : `more GPUs than KV heads: each head is stored on ${formatNumber(copies)} GPUs`;
  return ` × ${formatNumber(copies)} copies (${why})`;
}
