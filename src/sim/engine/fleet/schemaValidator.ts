/**
 * The one validator every part of a scenario is checked with (scenarioValidation.ts, and the modules that own a
 * part: router, clients, gateway, request overhead, shared-prefix workload, disaggregation). It collects every
 * problem as {path, message}, in the user's words, so a scenario file is corrected in one pass rather than one
 * error at a time; a part with a message of its own (a preset list, a share of tokens) says it through `err`.
 */
import { limitRefusal, type Limit } from '../limits';

export interface ValidationError {
  path: string;
  message: string;
}

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const at = (path: string, k: string) => (path ? `${path}.${k}` : k);

export class SchemaValidator {
  readonly errors: ValidationError[] = [];

  err(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  /** Every field of `o` not in `keys`, named with the fields that are known. */
  known(o: Obj, path: string, keys: readonly string[]): void {
    for (const k of Object.keys(o))
      if (!keys.includes(k)) this.err(at(path, k), `unknown field (known: ${keys.join(', ')})`);
  }

  num(
    o: Obj,
    k: string,
    path: string,
    opts: { required?: boolean; min?: number; max?: number; gt?: number; integer?: boolean } = {},
  ): void {
    const v = o[k];
    const p = at(path, k);
    if (v === undefined) {
      if (opts.required) this.err(p, 'is required');
      return;
    }
    if (typeof v !== 'number' || !Number.isFinite(v))
      return this.err(p, `must be a finite number (got ${JSON.stringify(v)})`);
    if (opts.integer && !Number.isInteger(v)) this.err(p, `must be a whole number (got ${v})`);
    if (opts.min !== undefined && v < opts.min) this.err(p, `must be ≥ ${opts.min} (got ${v})`);
    if (opts.gt !== undefined && !(v > opts.gt)) this.err(p, `must be > ${opts.gt} (got ${v})`);
    if (opts.max !== undefined && v > opts.max) this.err(p, `must be ≤ ${opts.max} (got ${v})`);
  }

  /**
   * A whole number in [min, max], refused in one message that states the whole range ("a whole number ≥ 1",
   * "a whole number from 1 to 100000"), whatever is wrong with it.
   */
  whole(o: Obj, k: string, path: string, range: { min: number; max?: number; required?: boolean }): void {
    const v = o[k];
    const p = at(path, k);
    if (v === undefined) {
      if (range.required) this.err(p, 'is required');
      return;
    }
    const { min, max } = range;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && (max === undefined || v <= max)) return;
    const want = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
    this.err(p, `must be a whole number ${want} (got ${JSON.stringify(v)})`);
  }

  /** An optional field a Limit bounds (engine/limits.ts): refused with the limit's own words, as the core does. */
  limit(o: Obj, k: string, path: string, l: Limit): void {
    const v = o[k];
    if (v === undefined) return;
    const why = limitRefusal(l, v);
    if (why) this.err(at(path, k), why);
  }

  oneOf(o: Obj, k: string, path: string, values: readonly unknown[], required = false): void {
    const v = o[k];
    const p = at(path, k);
    const list = values.map((x) => JSON.stringify(x)).join(', ');
    if (v === undefined) {
      if (required) this.err(p, `is required (one of ${list})`);
      return;
    }
    if (!values.includes(v)) this.err(p, `must be one of ${list} (got ${JSON.stringify(v)})`);
  }

  /** The object at `o[k]`, or undefined (with an error when it is required or not an object). */
  obj(o: Obj, k: string, path: string, required = false): Obj | undefined {
    const v = o[k];
    const p = at(path, k);
    if (v === undefined) {
      if (required) this.err(p, 'is required');
      return undefined;
    }
    if (!isObj(v)) {
      this.err(p, 'must be an object');
      return undefined;
    }
    return v;
  }
}
