/**
 * 07.05's exercises as a reader sees them: every figure their texts name is the one the answer is computed with (the
 * exercises' setups in src/widgets/kv-offload/schema.ts, the catalog entries they name, the worker's own link-count
 * rule), and the claims the explanations make hold on the computed values. A constant changed without its text, or a
 * figure typed back in, fails here.
 */
import { describe, expect, it } from 'vitest';
import { renderedText } from './lessonText';
import {
  CROSSING_CONTRAST,
  CROSSING_LINK_COUNT,
  CrossingExplanation,
  CrossingHint,
  CrossingQuestion,
  MinBandwidthExplanation,
  MinBandwidthHint,
  MinBandwidthQuestion,
  upperCrossing,
} from '../src/widgets/kv-offload/OffloadExercises';
import {
  EXERCISE_CROSSING,
  EXERCISE_MIN_BW,
  EXERCISE_MIN_BW_DRIVE,
  EXERCISE_MIN_BW_MODEL,
  EXERCISE_MIN_BW_MORE_GPUS,
} from '../src/widgets/kv-offload/schema';
import { countWord, foldWord } from '../src/lib/numberWords';
import { shortName } from '../src/sim/engine/catalog/names';
import { reloadVsRecompute } from '../src/worker/offloadMethods';
import { minBandwidthByModel } from '../src/worker/minBandwidthMethods';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findLink } from '../src/sim/engine/catalog/links';
import { DTYPE_BYTES, findModel } from '../src/sim/engine/catalog/models';
import { formatBandwidth, formatDuration, formatNumber } from '../src/lib/format';

/** The text as a reader sees it (the apostrophes React escapes, read back). */
const text = renderedText;

const X = EXERCISE_CROSSING;
const r = reloadVsRecompute(X);
const upper = upperCrossing(r)!;
const nic = findLink(X.linkId)!;
const b200 = findAccelerator(X.acceleratorId)!;

describe('07.05 exercise 1 (where reload over a NIC wins again): the text states the setup computed', () => {
  const q = text(<CrossingQuestion />);

  it('the replica and the GEMM efficiency are the setup’s', () => {
    expect(q).toContain(
      `A replica serves ${findModel(X.modelId)!.name} on ${X.tp} × ${shortName(b200.name)} (the GEMMs at ` +
        `${formatNumber(X.gemmEfficiency * 100)}% of peak BF16 FLOP/s)`,
    );
    expect(r.hardware.tp).toBe(X.tp);
    expect(r.hardware.gemmEfficiency).toBe(X.gemmEfficiency);
    expect(q).toContain('A replica serves Llama 3.1 70B on 8 × B200 (the GEMMs at');
  });

  it('the NIC: as many as the worker stripes over, its line rate, effective bandwidth and latency from the catalog', () => {
    expect(r.link.count).toBe(CROSSING_LINK_COUNT);
    expect(r.link.bandwidth).toBe(nic.effectiveBandwidth * r.link.count);
    expect(q).toContain(
      `comes back through ${countWord(r.link.count)} ${formatNumber((nic.lineRate * 8) / 1e9)} Gb/s RDMA NIC (` +
        `${formatBandwidth(nic.effectiveBandwidth)} effective, ${formatDuration(nic.latency)} per transfer)`,
    );
    expect(q).toContain('through one 100 Gb/s RDMA NIC (');
  });

  it('the hint’s figures are the worker’s', () => {
    const h = text(<CrossingHint r={r} />);
    expect(h).toContain(`G = ${X.tp} × peak × ${X.gemmEfficiency}`);
    expect(h).toContain(`/ ${formatBandwidth(r.link.bandwidth)} per token`);
  });

  it('the explanation compares with the prose’s setup on the same NIC, where reload wins at every length', () => {
    const e = text(<CrossingExplanation r={r} upper={upper} />);
    const c = CROSSING_CONTRAST;
    expect(c.linkId).toBe(X.linkId);
    expect(c.modelId).toBe(X.modelId);
    expect(c.tp).toBe(X.tp);
    expect(c.acceleratorId).not.toBe(X.acceleratorId);
    const contrast = reloadVsRecompute({ ...X, acceleratorId: c.acceleratorId });
    expect(contrast.breakEven.regime).toBe('reload-always-wins');
    // "the B200 recomputes faster"
    expect(r.breakEven.recomputeSecondsPerTokenAtStart).toBeLessThan(
      contrast.breakEven.recomputeSecondsPerTokenAtStart,
    );
    expect(e).toContain(
      `On ${c.tp} × ${shortName(findAccelerator(c.acceleratorId)!.name)} the same NIC wins at every length`,
    );
    expect(e).toContain(`the ${shortName(b200.name)} recomputes faster`);
    expect(e).toContain('On 8 × H100 SXM the same NIC wins at every length');
    expect(e).toContain('the B200 recomputes faster');
    expect(e).toContain(`gets ${formatNumber(Math.round(upper), 6)}.`);
  });
});

describe('07.05 exercise 2 (the smallest link bandwidth): the text states the setup computed', () => {
  const m = findModel(EXERCISE_MIN_BW_MODEL)!;
  const gpu = findAccelerator(EXERCISE_MIN_BW.acceleratorId)!;
  const res = minBandwidthByModel(EXERCISE_MIN_BW);
  const row = res.rows.find((x) => x.id === EXERCISE_MIN_BW_MODEL)!;
  const drive = findLink(EXERCISE_MIN_BW_DRIVE)!;

  it('the question: the model, the one GPU, the KV dtype and the TP to set', () => {
    const q = text(<MinBandwidthQuestion />);
    expect(EXERCISE_MIN_BW.tp).toBe(1);
    expect(q).toContain(`${m.name} runs on a single ${gpu.name} (GEMMs at`);
    expect(q).toContain(`KV in ${EXERCISE_MIN_BW.kvDtype.toUpperCase()})`);
    expect(q).toContain(`(set the TP to ${EXERCISE_MIN_BW.tp})`);
    expect(q).toContain(`${formatNumber(row.prefixTokens, 6)}-token prefix`);
    expect(q).toContain('Llama 3.1 8B runs on a single H100 SXM');
  });

  it('the hint’s KV product is the catalog’s and the worker’s', () => {
    const h = text(<MinBandwidthHint />);
    const bytes = DTYPE_BYTES[EXERCISE_MIN_BW.kvDtype];
    expect(h).toContain(
      `KV bytes per token: 2 × ${m.layers} layers × ${m.kvHeads} KV heads × ${m.headDim} × ${bytes} bytes.`,
    );
    expect(2 * m.layers * m.kvHeads * m.headDim * bytes).toBe(row.kvBytesPerToken);
    expect(h).toContain('2 × 32 layers × 8 KV heads × 128 × 2 bytes');
  });

  it('the explanation: one drive clears it; on more GPUs recompute is faster but by less than their count, and B* passes the drive', () => {
    const e = text(<MinBandwidthExplanation row={row} G={res.flops} />);
    const more = EXERCISE_MIN_BW_MORE_GPUS;
    expect(e).toContain(formatBandwidth(drive.effectiveBandwidth));
    expect(e).toContain(
      `on ${more} GPUs and recompute gets faster, though less than ${foldWord(more / EXERCISE_MIN_BW.tp)} since`,
    );
    expect(e).toContain('on 8 GPUs and recompute gets faster, though less than eightfold since');
    // The claims, on the computed values.
    expect(row.minBandwidth!).toBeLessThan(drive.effectiveBandwidth);
    const on = minBandwidthByModel({ ...EXERCISE_MIN_BW, tp: more }).rows.find(
      (x) => x.id === EXERCISE_MIN_BW_MODEL,
    )!;
    expect(on.recompute).toBeLessThan(row.recompute);
    expect(on.recompute * (more / EXERCISE_MIN_BW.tp)).toBeGreaterThan(row.recompute);
    expect(on.minBandwidth!).toBeGreaterThan(drive.effectiveBandwidth);
  });
});
