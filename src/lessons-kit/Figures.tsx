/**
 * Inline figures for lesson prose, computed from the catalogs so that prose and widgets never disagree.
 * Catalog look-ups are arithmetic on constants, not simulations, so they run on the main thread.
 */
import { findModel, kvBytesPerToken, type Dtype } from '../sim/engine/catalog/models';
import { formatBytes } from '../lib/format';

export function KvBytesPerToken({ model, dtype = 'bf16' }: { model: string; dtype?: Dtype }) {
  const m = findModel(model);
  if (!m) return <span className="figure-missing">[unknown model {model}]</span>;
  const bytes = kvBytesPerToken(m, dtype);
  return (
    <span className="figure" title={`${bytes.toLocaleString('en-US')} bytes (${m.name}, ${dtype})`}>
      {formatBytes(bytes)}
    </span>
  );
}
