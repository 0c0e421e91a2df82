/** The command line as the CLI tests run it: `tsx cli/sim.ts …` from the repository root, its exit code and output. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface SimRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json: () => any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function runSim(...args: string[]): SimRun {
  const r = spawnSync('node_modules/.bin/tsx', ['cli/sim.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}
