/**
 * One published figure the lab claims to reproduce: where it comes from, what the source measured, what the
 * core computes for the same setup, and how close the two must be. `npm run validate` prints every row;
 * tests/validation.test.ts asserts every row. docs/validation.md says why each row is set up as it is.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** How close `ours` must be to `published`. */
export type Tolerance =
  /** |ours / published − 1| ≤ value (0.15 = within 15%). */
  | { kind: 'relative'; value: number }
  /** published / value ≤ ours ≤ published · value (2 = within 2×). */
  | { kind: 'factor'; value: number };

export interface ValidationRow {
  /** Stable id, e.g. `vllm-ttft-8b-h100-8k`. */
  id: string;
  /** Rows of one source or experiment share a group, e.g. `Mooncake trace statistics`. */
  group: string;
  /** What is compared, in a reader's words (setup included). */
  what: string;
  /** Primary source: paper + table/figure, or repository + path. */
  source: string;
  /** The published figure, in `unit`. */
  published: number;
  unit: string;
  /** The core's figure for the same setup, in `unit`. */
  ours: () => number | Promise<number>;
  tolerance: Tolerance;
  /** Data files the row needs outside the repository; the row is skipped (and says so) when one is absent. */
  needs?: string[];
  /** Why the row is off, or what was inferred, when that matters to a reader. */
  note?: string;
  /**
   * A published figure the lab does not reproduce, and why (docs/validation.md): evaluated and shown with its ratio,
   * never counted as passing. Should it come within its tolerance, the row fails with a note to make it a row: a
   * gap the docs describe cannot close unnoticed.
   */
  knownGap?: string;
}

export interface RowResult {
  id: string;
  group: string;
  what: string;
  source: string;
  unit: string;
  published: number;
  ours: number | null;
  ratio: number | null;
  tolerance: string;
  /** 'gap': a known gap (ValidationRow.knownGap), still outside its tolerance. */
  status: 'pass' | 'fail' | 'skipped' | 'gap';
  note?: string;
}

/** `../shared/data/…` beside the checkout, where the Mooncake traces live (never copied into the repository). */
export function sharedData(relPath: string): string {
  return fileURLToPath(new URL(`../../shared/data/${relPath}`, import.meta.url));
}

export function withinTolerance(ours: number, published: number, t: Tolerance): boolean {
  if (!Number.isFinite(ours)) return false;
  if (t.kind === 'relative') return Math.abs(ours / published - 1) <= t.value + 1e-12;
  return ours >= published / t.value - 1e-12 && ours <= published * t.value + 1e-12;
}

export function describeTolerance(t: Tolerance): string {
  return t.kind === 'relative' ? `±${Math.round(t.value * 1000) / 10}%` : `within ${t.value}×`;
}

export function missingData(row: ValidationRow): string[] {
  return (row.needs ?? []).filter((p) => !existsSync(p));
}

export async function evaluate(row: ValidationRow): Promise<RowResult> {
  const base = {
    id: row.id,
    group: row.group,
    what: row.what,
    source: row.source,
    unit: row.unit,
    published: row.published,
    tolerance: describeTolerance(row.tolerance),
    note: row.note,
  };
  const missing = missingData(row);
  if (missing.length > 0)
    return { ...base, ours: null, ratio: null, status: 'skipped', note: `needs ${missing.join(', ')}` };
  const ours = await row.ours();
  const within = withinTolerance(ours, row.published, row.tolerance);
  const result = { ...base, ours, ratio: ours / row.published };
  if (row.knownGap === undefined) return { ...result, status: within ? 'pass' : 'fail' };
  return within
    ? { ...result, status: 'fail', note: `this known gap has closed (${row.knownGap}): make it a row` }
    : { ...result, status: 'gap', note: row.knownGap };
}
