/**
 * `npm run sim -- <command> [flags]`: the simulation core from the command line. JSON on stdout; on bad
 * input a one-line message on stderr and exit code 2 (never a stack trace).
 */
import { readFileSync } from 'node:fs';
import { parseArgs, UsageError } from './args';
import { COMMANDS, loadAllCommands } from './commands/index';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

async function help(): Promise<string> {
  const lines = [
    `serving-agents-lab sim ${pkg.version}`,
    '',
    'Usage: npm run sim -- <command> [flags]',
    '',
    'Commands:',
  ];
  for (const c of await loadAllCommands()) lines.push(`  ${c.usage}`, `      ${c.summary}`);
  lines.push(
    '  version',
    '      print the version',
    '',
    'Every command prints JSON on stdout. See docs/cli.md.',
  );
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write((await help()) + '\n');
    return 0;
  }
  if (name === 'version' || name === '--version') {
    process.stdout.write(
      JSON.stringify({
        name: 'serving-agents-lab',
        version: pkg.version,
        commands: COMMANDS.map((c) => c.name),
      }) + '\n',
    );
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(
      `sim: unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}, version\n`,
    );
    return 2;
  }
  const command = await entry.load();
  try {
    const out = await command.run(parseArgs(rest));
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`sim ${name}: ${e.message}\nusage: npm run sim -- ${command.usage}\n`);
      return 2;
    }
    const msg = e instanceof Error ? e.message : String(e);
    process.stderr.write(`sim ${name}: ${msg}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
