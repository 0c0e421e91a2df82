#!/usr/bin/env node
/**
 * `npm test`: unit tests (Vitest), then a production build, then browser tests (Playwright against
 * `vite preview`). Ends with one plain line totalled over both runners: `N passed, N failed`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, existsSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

// 1. Unit and property tests.
const unitCode = run('node_modules/.bin/vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/unit-results.json',
]);
if (existsSync('test-results/unit-results.json')) {
  const r = JSON.parse(readFileSync('test-results/unit-results.json', 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  if ((r.numFailedTestSuites ?? 0) > 0 && (r.numFailedTests ?? 0) === 0) failed += r.numFailedTestSuites;
} else if (unitCode !== 0) failed += 1;
if (unitCode !== 0) exitCode = 1;

// 2. Build the site the browser tests drive: the production build plus the debug handles the tests use
//    (src/debugHandles.ts; a plain `npm run build` leaves them out).
const buildCode = run('npm', ['run', 'build'], { VITE_SAL_DEBUG: '1' });
if (buildCode !== 0) {
  console.error('test: the build failed, so the browser tests cannot run');
  failed += 1;
  exitCode = 1;
} else {
  // 3. Browser tests.
  const e2eCode = run('node_modules/.bin/playwright', ['test'], { CI: '1' });
  if (existsSync('test-results/e2e-results.json')) {
    const r = JSON.parse(readFileSync('test-results/e2e-results.json', 'utf8'));
    const s = r.stats ?? {};
    passed += (s.expected ?? 0) + (s.flaky ?? 0);
    failed += s.unexpected ?? 0;
    skipped += s.skipped ?? 0;
    if (e2eCode !== 0 && (s.unexpected ?? 0) === 0) failed += 1;
  } else if (e2eCode !== 0) failed += 1;
  if (e2eCode !== 0) exitCode = 1;
}

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(exitCode);
