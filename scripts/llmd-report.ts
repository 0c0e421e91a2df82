/**
 * `npx tsx scripts/llmd-report.ts [precise|approximate|load|random …]`: runs the llm-d 73-capacity scenarios
 * (scenarios/validation/llmd-73-capacity-*.json) and prints, per requested QPS, the TTFT p90 and output tokens/s
 * the way llm-d's report computes them, with the summary row `npm run validate` compares (validation/rows/llmd.ts).
 */
import { LLMD_PUBLISHED, llmdRun, type LlmdExperiment } from '../validation/rows/llmd';

const all: LlmdExperiment[] = ['precise', 'approximate', 'load', 'random'];
const asked = process.argv.slice(2) as LlmdExperiment[];
for (const e of asked.length ? asked : all) {
  if (!all.includes(e)) {
    console.error(`unknown experiment "${e}" (one of ${all.join(', ')})`);
    process.exit(2);
  }
  const s = llmdRun(e);
  const p = LLMD_PUBLISHED[e];
  console.log(
    `\n${e}: TTFT p90 ${s.ttftP90S.toFixed(3)} s (llm-d ${p.ttftP90S}), output ${s.outputTokensPerS.toFixed(0)} tok/s (llm-d ${p.outputTokensPerS}), failed ${s.failed}`,
  );
  console.log('  QPS  TTFT p90 (s)  output tok/s');
  for (const q of [...s.perQps].sort((a, b) => a.qps - b.qps))
    console.log(
      `  ${String(q.qps).padStart(3)}  ${q.ttftP90S.toFixed(3).padStart(12)}  ${q.outputTokensPerS.toFixed(0).padStart(12)}`,
    );
}
