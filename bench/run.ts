/**
 * `npm run bench [-- <suite> ...]`: speed figures, printed, never asserted (the machines are shared and
 * noisy; each suite reports medians and ratios measured within one run).
 */
import { SUITES } from './suites/index';

const wanted = process.argv.slice(2);
const chosen = wanted.length ? SUITES.filter((s) => wanted.includes(s.name)) : SUITES;
if (wanted.length && chosen.length !== wanted.length) {
  console.error(`bench: unknown suite; known: ${SUITES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
for (const suite of chosen) {
  console.log(`\n## ${suite.name}: ${suite.description}`);
  await suite.run();
}
