/**
 * The catalog of `sim` commands. Each command module exports one Command; add new ones here. Modules load on
 * demand, so a command pays only for its own code at start-up (the bundle is split per command).
 */
import type { ParsedArgs } from '../args';

/**
 * One flag as `sim <command> --help` lists it. A command accepts exactly the flags it lists (checkKnownFlags is
 * given flagNames(flags)), so the help cannot leave one out.
 */
export interface FlagHelp {
  name: string;
  /** What follows the flag: `<id>`, `N`, `x`; absent for a switch. */
  value?: string;
  /** The value used when the flag is absent, as a reader would say it; absent when there is none. */
  default?: string;
  /** What it sets, with its unit and the values allowed. */
  meaning: string;
}

export const flagNames = (flags: readonly FlagHelp[]): string[] => flags.map((f) => f.name);

export interface Command {
  name: string;
  usage: string;
  summary: string;
  flags: readonly FlagHelp[];
  /** Returns the JSON value printed on stdout. */
  run(args: ParsedArgs): unknown | Promise<unknown>;
}

export interface CommandEntry {
  name: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'kv', load: () => import('./kv').then((m) => m.kvCommand) },
  { name: 'catalog', load: () => import('./catalog').then((m) => m.catalogCommand) },
  { name: 'breakeven', load: () => import('./breakeven').then((m) => m.breakevenCommand) },
  { name: 'cost', load: () => import('./cost').then((m) => m.costCommand) },
  { name: 'trace-stats', load: () => import('./traceStats').then((m) => m.traceStatsCommand) },
  { name: 'run', load: () => import('./run').then((m) => m.runCommand) },
];

/** Every command, loaded (for the help text and tests). */
export function loadAllCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((c) => c.load()));
}
