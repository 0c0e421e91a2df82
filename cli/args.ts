/** Minimal flag parsing for the `sim` command line: `--name value`, `--flag`, and positionals. */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) {
        flags.set(a.slice(2, eq), a.slice(eq + 1));
      } else {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith('--')) {
          flags.set(a.slice(2), next);
          i++;
        } else flags.set(a.slice(2), true);
      }
    } else positionals.push(a);
  }
  return { positionals, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  // `--prefill=` gives an empty string: a missing value, not 0 (Number('') is 0).
  if (v === true || v === '') throw new UsageError(`--${name} needs a value`);
  return v;
}

export function numberFlag(
  args: ParsedArgs,
  name: string,
  opts: { min?: number; max?: number; integer?: boolean } = {},
): number | undefined {
  const s = stringFlag(args, name);
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${s}"`);
  if (opts.integer && !Number.isInteger(n))
    throw new UsageError(`--${name} must be a whole number, got "${s}"`);
  if (opts.min !== undefined && n < opts.min)
    throw new UsageError(`--${name} must be at least ${opts.min}, got ${n}`);
  if (opts.max !== undefined && n > opts.max)
    throw new UsageError(`--${name} must be at most ${opts.max}, got ${n}`);
  return n;
}

/** Reject flags a command does not know, so a typo is not silently ignored. */
export function checkKnownFlags(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (!known.includes(name))
      throw new UsageError(
        `unknown flag --${name} (known: ${known.map((k) => '--' + k).join(', ') || 'none'})`,
      );
  }
}
