/**
 * `npm run sim -- <command> [flags]`: the simulation core from the command line. JSON on stdout; on bad
 * input a one-line message on stderr and exit code 2 (never a stack trace).
 */
import { readFileSync } from 'node:fs';
import { parseArgs, UsageError } from './args';
import { COMMANDS, loadAllCommands, type Command } from './commands/index';
import { commandHelp, overallHelp } from './help';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function printHelp(command: Command): number {
  process.stdout.write(commandHelp(command) + '\n');
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const isHelp = (a: string | undefined) => a === 'help' || a === '--help' || a === '-h';
  if (!name || isHelp(name)) {
    // `help <command>` is that command's help, as `<command> --help` is.
    const topic = COMMANDS.find((c) => c.name === rest[0]);
    if (topic) return printHelp(await topic.load());
    process.stdout.write(overallHelp(pkg.version, await loadAllCommands()) + '\n');
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
  // Asked anywhere on the line, so a user who has typed half a command can still ask what it takes.
  if (rest.some((a) => a === '--help' || a === '-h')) return printHelp(command);
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
