/** The help texts: `sim --help` (every command) and `sim <command> --help` (one command, every flag). */
import type { Command } from './commands/index';

export function overallHelp(version: string, commands: readonly Command[]): string {
  const lines = [
    `serving-agents-lab sim ${version}`,
    '',
    'Usage: npm run sim -- <command> [flags]',
    '',
    'Commands:',
  ];
  for (const c of commands) lines.push(`  ${c.usage}`, `      ${c.summary}`);
  lines.push(
    '  version',
    '      print the version',
    '',
    'Every command prints JSON on stdout. `npm run sim -- <command> --help` lists its flags. See docs/cli.md.',
  );
  return lines.join('\n');
}

/** One command's usage, summary and a table of its flags: flag, default, meaning (with unit and range). */
export function commandHelp(c: Command): string {
  const rows = c.flags.map((f) => [`--${f.name}${f.value ? ' ' + f.value : ''}`, f.default ?? '', f.meaning]);
  const head = ['flag', 'default', 'meaning'];
  const width = (i: number) => Math.max(head[i].length, ...rows.map((r) => r[i].length));
  const line = (r: string[]) => `  ${r[0].padEnd(width(0))}  ${r[1].padEnd(width(1))}  ${r[2]}`.trimEnd();
  return [
    `Usage: npm run sim -- ${c.usage}`,
    '',
    c.summary,
    '',
    ...(rows.length ? ['Flags:', line(head), ...rows.map(line)] : ['No flags.']),
    '',
    'Prints JSON on stdout; bad input exits 2 with a message on stderr. See docs/cli.md.',
  ].join('\n');
}
