/**
 * The unit every KV copy moves: bytes of one 16-token block on one GPU, as vLLM's offloading connector transfers
 * it (one contiguous block holding every layer's K and V since vLLM 0.12.0). The fleet counts bytes per link as
 * copies × this block's bytes (src/sim/engine/kvcache/tierStore.ts), so the row checks the copy unit against the
 * engine's own table.
 *
 * Source: vLLM blog, "Inside vLLM's New KV Offloading Connector" (Ozeri and Harnik, 8 January 2026;
 * vllm-project/vllm-project.github.io `_posts/2026-01-08-kv-offloading-connector.md`), table "Old block size / New
 * block size", assuming 16-token blocks. Its "MB" are MiB (Llama-3.1-8B: 32 layers × 8 KV heads × 128 × 2 × 2 B ×
 * 16 = 2,097,152 B, written "2 MB").
 */
import { findModel } from '../../src/sim/engine/catalog/models';
import { replicaKvBytesPerToken } from '../../src/sim/engine/flopsAndBytes';
import type { ValidationRow } from '../row';

const GROUP = 'vLLM offloading connector: bytes per offloaded block';
const SOURCE = 'vLLM blog "Inside vLLM\'s New KV Offloading Connector" (2026-01-08), block-size table';
const MiB = 2 ** 20;

/**
 * What one GPU holds of a 16-token BF16 block: a tp-way split of every copy the replica keeps (its share of the KV
 * heads, or whole heads stored on several GPUs when they are fewer than the GPUs).
 */
function perGpuBlockMiB(model: string, tp: number): number {
  const m = findModel(model);
  if (!m) throw new Error(`no model ${model} in the catalog`);
  return (replicaKvBytesPerToken(m, 'bf16', tp) * 16) / tp / MiB;
}

export const rows: ValidationRow[] = [
  {
    id: 'vllm-offload-block-llama-3.1-8b',
    group: GROUP,
    what: 'Llama-3.1-8B, one GPU, 16-token BF16 block',
    source: SOURCE,
    published: 2,
    unit: 'MiB',
    ours: () => perGpuBlockMiB('llama-3.1-8b', 1),
    tolerance: { kind: 'relative', value: 0.01 },
  },
  {
    id: 'vllm-offload-block-qwen3-32b-tp2',
    group: GROUP,
    what: 'Qwen3-32B, tensor_parallel_size=2 (the 07.06 arena replica), per GPU',
    source: SOURCE,
    published: 2,
    unit: 'MiB',
    ours: () => perGpuBlockMiB('qwen3-32b', 2),
    tolerance: { kind: 'relative', value: 0.01 },
  },
  {
    id: 'vllm-offload-block-llama-3.1-70b',
    group: GROUP,
    what: 'Llama-3.1-70B, per GPU (tensor_parallel_size inferred: 4, not stated in the table)',
    source: SOURCE,
    published: 1.25,
    unit: 'MiB',
    ours: () => perGpuBlockMiB('llama-3.1-70b', 4),
    tolerance: { kind: 'relative', value: 0.01 },
    note: 'The table gives no tensor-parallel size for 70B; 1.25 MiB is a quarter of its 5 MiB block, so TP 4.',
  },
];
