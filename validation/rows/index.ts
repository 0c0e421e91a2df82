/**
 * Every validation row, gathered from one file per source or experiment. Add a file under rows/ exporting
 * `rows: ValidationRow[]` and list it here.
 */
import type { ValidationRow } from '../row';
import { rows as costRows } from './cost';
import { rows as mlenergy } from './mlenergy';
import { rows as mlenergyFleet } from './mlenergyFleet';
import { rows as mooncake } from './mooncake';
import { rows as breakeven } from './breakeven';
import { rows as xgrammar } from './xgrammar';
import { rows as kvOffloadBlocks } from './kvOffloadBlocks';
import { rows as tracelab } from './tracelab';
import { rows as llmd } from './llmd';

export const ALL_ROWS: ValidationRow[] = [
  ...costRows,
  ...mlenergy,
  ...mlenergyFleet,
  ...mooncake,
  ...breakeven,
  ...xgrammar,
  ...kvOffloadBlocks,
  ...tracelab,
  ...llmd,
];
