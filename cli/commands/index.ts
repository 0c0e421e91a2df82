/** The catalog of `sim` commands. Each command module exports one Command; add new ones here. */
import type { ParsedArgs } from '../args';
import { kvCommand } from './kv';
import { catalogCommand } from './catalog';
import { breakevenCommand } from './breakeven';
import { traceStatsCommand } from './traceStats';
import { runCommand } from './run';
import { costCommand } from './cost';

export interface Command {
  name: string;
  usage: string;
  summary: string;
  /** Returns the JSON value printed on stdout. */
  run(args: ParsedArgs): unknown | Promise<unknown>;
}

export const COMMANDS: readonly Command[] = [
  kvCommand,
  catalogCommand,
  breakevenCommand,
  costCommand,
  traceStatsCommand,
  runCommand,
];
