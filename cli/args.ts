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

/** Edits (insert, delete, replace one character) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** Reject flags a command does not know, so a typo is not silently ignored; a near miss is named first. */
export function checkKnownFlags(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (known.includes(name)) continue;
    // Within two edits (--modle, --layer, --kv-dtyp), one for a short name (--tpp, not --hbm → --mbu): in a list
    // of 30 flags the one meant is easy to miss. Named only when one flag is that near.
    const near = known.filter((k) => editDistance(name, k) <= (name.length <= 4 ? 1 : 2));
    const guess = near.length === 1 ? `did you mean --${near[0]}? ` : '';
    throw new UsageError(
      `unknown flag --${name} (${guess}known: ${known.map((k) => '--' + k).join(', ') || 'none'})`,
    );
  }
}
