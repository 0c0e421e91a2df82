/**
 * Every validation row, gathered from one file per source or experiment. Add a file under rows/ exporting
 * `rows: ValidationRow[]` and list it here.
 */
import type { ValidationRow } from '../row';
import { rows as tracelab } from './tracelab';

export const ALL_ROWS: ValidationRow[] = [...tracelab];
