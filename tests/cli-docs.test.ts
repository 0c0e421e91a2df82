/* eslint-disable @typescript-eslint/no-explicit-any -- compares JSON quoted in docs/cli.md with the CLI's */
/**
 * docs/cli.md quotes what the commands print: every `$ npm run -s sim -- …` in a code block is run, and its output
 * must be what the block shows. Whole outputs must match exactly; an output marked "fields picked" must have every
 * field it shows, with the value shown. (The catalog's node totals went stale when HBM became the driver's figure.)
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(join(root, 'docs/cli.md'), 'utf8');

interface Example {
  args: string[];
  /** `; echo "exit $?"`: the block shows stderr and the exit code, not stdout. */
  showsExit: boolean;
  expected: string;
  /** The block shows some of the fields ("fields picked", or condensed into a json block after it). */
  partial: boolean;
}

function examples(): Example[] {
  const out: Example[] = [];
  const blocks = [...doc.matchAll(/(.*)\n\n```[a-z]*\n([\s\S]*?)```/g)];
  blocks.forEach((m, b) => {
    const lines = m[2].split('\n');
    for (let i = 0; i < lines.length; i++) {
      const cmd = /^\$ npm run -s sim -- (.*)$/.exec(lines[i]);
      if (!cmd || cmd[1].includes('|')) continue; // piped through jq: not the command's own output
      let j = i + 1;
      while (j < lines.length && !lines[j].startsWith('$ ')) j++;
      let expected = lines
        .slice(i + 1, j)
        .join('\n')
        .trim();
      // Partial under a heading or a lead-in line that says so ("fields picked").
      const heading =
        doc
          .slice(0, m.index)
          .match(/^#+ .*$/gm)
          ?.pop() ?? '';
      let partial = /fields picked/.test(m[1]) || /fields picked/.test(heading);
      if (!expected) {
        // The output is the next block, condensed (one line per object).
        expected = blocks[b + 1][2].trim();
        partial = true;
      }
      const showsExit = cmd[1].endsWith('; echo "exit $?"');
      const args = cmd[1].replace('; echo "exit $?"', '').trim().split(/\s+/);
      out.push({ args, showsExit, expected, partial });
    }
  });
  return out;
}

/** Every field of `shown` is in `actual` with the same value (arrays whole). */
function expectFieldsOf(shown: any, actual: any, path = ''): void {
  if (shown === null || typeof shown !== 'object' || Array.isArray(shown)) {
    expect(actual, path).toEqual(shown);
    return;
  }
  for (const k of Object.keys(shown)) expectFieldsOf(shown[k], actual?.[k], `${path}.${k}`);
}

describe('docs/cli.md examples', () => {
  const all = examples();

  it('finds the examples', () => {
    expect(all.length).toBeGreaterThan(15);
  });

  it.each(all.map((e) => [e.args.join(' '), e] as const))('%s prints what the docs show', (_, e) => {
    const file = e.args.find((a) => a.endsWith('.jsonl'));
    if (file && !existsSync(join(root, file))) return; // a data set outside the repository (trace-stats example)
    const r = spawnSync('node_modules/.bin/tsx', ['cli/sim.ts', ...e.args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (e.showsExit) {
      expect(`${r.stderr.trim()}\nexit ${r.status}`).toBe(e.expected);
      return;
    }
    expect(r.status).toBe(0);
    if (!e.partial) expect(r.stdout.trim()).toBe(e.expected);
    else expectFieldsOf(JSON.parse(e.expected), JSON.parse(r.stdout));
  });
});
