/**
 * 07.10's prose on the all-reduce model's range, as a reader sees it: the model's side of each comparison with
 * SGLang's microbenchmarks and ML.ENERGY's measured step is an inline figure (AllReduceFig), pinned here to the
 * values the comparison needs, and the qualitative claims around them ("between those two sizes", "more than
 * either", what a measured two-GPU step adds) checked against the same core.
 */
import { lessonSource, renderedText } from './lessonText';
import { describe, expect, it } from 'vitest';
import { AllReduceFig } from '../src/widgets/long-prefill/figures';
import { allReduceMessageBytes, allReducePath, allReduceTime } from '../src/sim/engine/tensorParallel';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findModel } from '../src/sim/engine/catalog/models';

const KiB = 1024;
const MiB = 1024 * KiB;
const { flat } = lessonSource('07-10-long-context-prefill');

describe('07.10: the all-reduce figures of the prose', () => {
  it('a 32-sequence decode step of Llama 3.1 70B on eight GPUs: 512 KiB a call in 40 µs', () => {
    expect(renderedText(<AllReduceFig model="llama-3.1-70b" gpus={8} tokens={32} m="bytes" />)).toBe(
      '512 KiB',
    );
    expect(renderedText(<AllReduceFig model="llama-3.1-70b" gpus={8} tokens={32} m="time" />)).toBe('40 µs');
    expect(flat).toContain('<AllReduceFig model="llama-3.1-70b" gpus={8} tokens={32} m="time" />');
  });

  it('“between those two sizes, … more than either”: SGLang’s 12 µs at 128 KiB and 24 µs at 1 MiB', () => {
    const m = findModel('llama-3.1-70b')!;
    const bytes = allReduceMessageBytes(m, 32);
    expect(bytes).toBeGreaterThan(128 * KiB);
    expect(bytes).toBeLessThan(1 * MiB);
    const t = allReduceTime(allReducePath(findAccelerator('h100-sxm')!, 8), 8, bytes);
    expect(t).toBeGreaterThan(24e-6);
    expect(flat).toContain('give 12 µs for 128 KiB and 24 µs for 1 MiB over eight GPUs');
  });

  it('Qwen3-32B at a batch of 8 over two GPUs: 80 KiB a call; the model’s 20 µs, near the measured 2.46 ms / 128', () => {
    expect(renderedText(<AllReduceFig model="qwen3-32b" gpus={2} tokens={8} m="bytes" />)).toBe('80 KiB');
    expect(renderedText(<AllReduceFig model="qwen3-32b" gpus={2} tokens={8} m="time" />)).toBe('20 µs');
    // 128 all-reduces: two per layer of Qwen3-32B's 64
    expect(2 * findModel('qwen3-32b')!.layers).toBe(128);
    expect((2.46e-3 / 128) * 1e6).toBeCloseTo(19, 0);
    expect(flat).toContain('adds 19 µs a call, 2.46 ms over its 128 all-reduces');
  });

  it('a chunk iteration of 512 prompt tokens and 32 decodes: 8.9 MB a call, within symmetric memory’s 64 MiB', () => {
    expect(renderedText(<AllReduceFig model="llama-3.1-70b" gpus={8} tokens={544} m="bytesDecimal" />)).toBe(
      '8.9 MB',
    );
    expect(allReduceMessageBytes(findModel('llama-3.1-70b')!, 544)).toBeLessThan(64 * MiB);
    expect(allReduceMessageBytes(findModel('llama-3.1-70b')!, 544)).toBeGreaterThan(256 * KiB);
  });
});

describe('07.10: wording the review fixed', () => {
  it('chunked prefill is on by default in vLLM V1, not always on (the timeline switches it off)', () => {
    expect(flat).toContain('on by default in vLLM V1');
    expect(flat).not.toContain('always on in vLLM V1');
  });
  it('the worst gap is the last full chunk, in the prose and in What to remember', () => {
    expect(flat.match(/the last full chunk, \$\\approx t\(n,\\ P - n\)\$/g)?.length).toBe(2);
  });
  it('512-token chunks: the decodes and the fixed costs are all of chunking’s cost but the LM head run once per chunk', async () => {
    const { prefillFigures } = await import('../src/worker/prefillFigureMethods');
    const { FIGURES_REQUEST } = await import('../src/widgets/long-prefill/schema');
    const { chunkingRestS } = await import('../src/widgets/long-prefill/figures');
    const { prefillGemmFlops } = await import('../src/sim/engine/flopsAndBytes');
    const f = prefillFigures(FIGURES_REQUEST);
    const c = f.chunks.find((x) => x.chunk === 512)!;
    expect(c.breakdown.memoryS).toBe(0);
    // The rest: the LM head (2 FLOPs per embedding parameter, what a prefill's GEMMs cost beyond 2·P_body per token),
    // once per chunk beyond the whole prompt's one, at G_m.
    const m = findModel('llama-3.1-70b')!;
    const headFlops = 2 * prefillGemmFlops(m, 1) - prefillGemmFlops(m, 2);
    expect(headFlops).toBeGreaterThan(0);
    const headS = headFlops / f.formula.effectiveFlops;
    expect(chunkingRestS(c, f)).toBeCloseTo((c.prefillIterations - 1) * headS, 9);
    expect(chunkingRestS(c, f)).toBeGreaterThan(0);
    expect(chunkingRestS(c, f)).toBeLessThan(1e-3 * (c.ttftS - f.wholeS));
    expect(flat).toContain(
      'all but <ChunkFig chunk={512} m="rest" /> of the <ChunkFig chunk={512} m="ttftExtra" /> that chunking costs the prompt (the rest is the LM head, which each chunk runs once)',
    );
  });
  it('the smallest chunk is bounded through the extra iterations’ fixed costs, not through memory-bound iterations', () => {
    expect(flat).not.toContain('through the memory-bound iterations');
    expect(
      flat.match(/chiefly its fixed costs \(and, for the smallest chunks, memory-bound iterations\)/g)
        ?.length,
    ).toBe(2);
  });
  it('MBU and B_bus are defined where the recap uses them', () => {
    expect(flat).toContain(
      'MBU (memory-bandwidth utilisation) the share of that bandwidth a pass actually achieves',
    );
    expect(flat).toContain('$B_{\\text{bus}}$ the bus bandwidth the ring of $G$ GPUs achieves over NVLink');
  });
});
