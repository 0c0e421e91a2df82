/**
 * The catalog of `sim` commands. Each command module exports one Command; add new ones here. Modules load on
 * demand, so a command pays only for its own code at start-up (the bundle is split per command).
 */
import type { ParsedArgs } from '../args';

export interface Command {
  name: string;
  usage: string;
  summary: string;
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
