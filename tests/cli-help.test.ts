/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk JSON parsed from the CLI's stdout */
/**
 * `sim <command> --help`: exit 0 with the command's usage and one row per flag it accepts, defaults as the code
 * applies them. Before, `--help` after a command was refused as an unknown flag (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { runSim } from './cli-process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, UsageError } from '../cli/args';
import { loadAllCommands } from '../cli/commands/index';
import { commandHelp } from '../cli/help';

const root = fileURLToPath(new URL('..', import.meta.url));

const sim = runSim;

/** The flags a command accepts, as its refusal of an unknown one lists them. */
async function acceptedFlags(name: string): Promise<string[]> {
  const c = (await loadAllCommands()).find((x) => x.name === name)!;
  try {
    await c.run(parseArgs(['--no-such-flag', '1']));
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    const known = /\(known: (.*)\)/.exec((e as Error).message);
    return known ? known[1].split(', ') : [];
  }
  throw new Error(`${name} accepted --no-such-flag`);
}

/** The default column of a flag's row in `help`. */
function helpDefault(help: string, flag: string): string {
  const header = help.split('\n').find((l) => /^\s+flag\s+default\s+meaning$/.test(l))!;
  const col = header.indexOf('default');
  const end = header.indexOf('meaning');
  const row = help
    .split('\n')
    .find((l) => l.trimStart().startsWith(`--${flag} `) || l.trim() === `--${flag}`)!;
  return row.slice(col, end).trim();
}

describe('sim <command> --help', () => {
  it('prints the usage and every flag the command accepts, exit 0; `help <command>` is the same', async () => {
    const r = sim('breakeven', '--help');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run sim -- breakeven --model <id>/);
    expect(sim('help', 'breakeven').stdout).toBe(r.stdout);
    // Anywhere on the line, even after flags that would be refused.
    expect(sim('cost', '--model', 'nope', '-h').code).toBe(0);
  });

  it.each(['kv', 'catalog', 'breakeven', 'cost', 'trace-stats', 'run'])(
    '%s: the help lists exactly the flags the command accepts',
    async (name) => {
      const c = (await loadAllCommands()).find((x) => x.name === name)!;
      const help = commandHelp(c);
      const listed = [...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
      expect(listed.sort()).toEqual((await acceptedFlags(name)).sort());
    },
  );

  it('the defaults it states are the ones the commands apply', async () => {
    const all = await loadAllCommands();
    const help = (n: string) => commandHelp(all.find((c) => c.name === n)!);
    const cost: any = await all
      .find((c) => c.name === 'cost')!
      .run(parseArgs(['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill', '10']));
    const costHelp = help('cost');
    expect(helpDefault(costHelp, 'gemm-eff')).toMatch(new RegExp(`^${cost.gemmEfficiency} `));
    expect(helpDefault(costHelp, 'attn-eff')).toBe(String(cost.attentionEfficiency));
    expect(helpDefault(costHelp, 'mbu')).toBe(String(cost.mbu));
    expect(helpDefault(costHelp, 'overhead-ms')).toBe(String(cost.iterationOverheadS * 1000));
    expect(helpDefault(costHelp, 'tp')).toBe(String(cost.tp));
    expect(helpDefault(costHelp, 'kv-dtype')).toBe(cost.kvDtype);
    expect(helpDefault(costHelp, 'gpus-per-node')).toMatch(/\(8\)/);
    const kv: any = await all.find((c) => c.name === 'kv')!.run(parseArgs(['--model', 'llama-3.1-8b']));
    expect(helpDefault(help('kv'), 'block-size')).toBe(String(kv.blockSizeTokens));
    expect(helpDefault(help('kv'), 'dtype')).toBe(kv.dtype);
  });

  it('the docs list every flag in their table for the command (run: docs/scenarios.md)', async () => {
    const cli = readFileSync(`${root}docs/cli.md`, 'utf8');
    const scenarios = readFileSync(`${root}docs/scenarios.md`, 'utf8');
    const tableRows = (text: string) => text.split('\n').filter((l) => l.startsWith('|'));
    for (const c of await loadAllCommands()) {
      const start = cli.indexOf(`\n## ${c.name}\n`);
      const section = c.name === 'run' ? scenarios : cli.slice(start, cli.indexOf('\n## ', start + 1));
      const rows = tableRows(section).join('\n');
      expect(
        c.flags.filter((f) => !rows.includes(`--${f.name}`)).map((f) => `${c.name} --${f.name}`),
      ).toEqual([]);
    }
  });
});
