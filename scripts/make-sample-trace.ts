/**
 * Writes the sample Mooncake-format trace that lesson 07.01's "Traffic shape" widget loads with its "Load the
 * sample trace" button: a mix of coding-agent and chat sessions from the workload generator
 * (SAMPLE_TRACE_OPTIONS in src/sim/lessons/agentWorkload.ts). Run: npx tsx scripts/make-sample-trace.ts
 * tests/lesson-07-01.test.ts checks that the shipped file equals what this writes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sampleTraceText } from '../src/sim/lessons/agentWorkload';

const out = fileURLToPath(new URL('../public/traces/agent-mix.mooncake.jsonl', import.meta.url));
const text = sampleTraceText();
writeFileSync(out, text);
console.log(`wrote ${out}: ${text.split('\n').length - 1} requests, ${text.length} bytes`);
