/**
 * A widget declares its parameters once. The same declaration drives its controls, its URL query
 * (read back validated and clamped: hand-edited URLs are expected) and its reset.
 */
import { SEED_LIMIT } from '../sim/engine/rng';

export interface NumberParam {
  kind: 'number';
  label: string;
  default: number;
  min: number;
  max: number;
  step?: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** Log scale for ranges that span decades. */
  scale?: 'linear' | 'log';
  unit?: string;
  /** How to show the value beside the slider (defaults to the number and its unit). */
  format?: (value: number) => string;
  help?: string;
}

export interface SelectParam {
  kind: 'select';
  label: string;
  default: string;
  options: readonly { value: string; label: string }[];
  help?: string;
}

export interface BooleanParam {
  kind: 'boolean';
  label: string;
  default: boolean;
  help?: string;
}

export interface SeedParam {
  kind: 'seed';
  label: string;
  default: number;
  help?: string;
}

export type ParamSpec = NumberParam | SelectParam | BooleanParam | SeedParam;
export type ParamSchema = Record<string, ParamSpec>;

type ValueOf<P extends ParamSpec> = P extends SelectParam
  ? string
  : P extends BooleanParam
    ? boolean
    : number;
export type ParamValues<S extends ParamSchema> = { [K in keyof S]: ValueOf<S[K]> };

/** The largest seed a control offers or a link may carry: the generator's own range (SEED_LIMIT). */
export const SEED_MAX = SEED_LIMIT.max;

export function defaultValues<S extends ParamSchema>(schema: S): ParamValues<S> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(schema)) out[key] = spec.default;
  return out as ParamValues<S>;
}

/** Clamp and round a number to what the spec admits; NaN falls back to the default. */
export function clampNumber(spec: NumberParam, value: number): number {
  if (!Number.isFinite(value)) return spec.default;
  let v = Math.min(spec.max, Math.max(spec.min, value));
  if (spec.integer) v = Math.round(v);
  else if (spec.step) {
    // Log-scale controls too: a typed 66.9 on a step of 10 is 70, the value the computation accepts.
    v = spec.min + Math.round((v - spec.min) / spec.step) * spec.step;
    v = Number(v.toPrecision(12));
    v = Math.min(spec.max, Math.max(spec.min, v));
  }
  return v;
}

/** Coerce one raw value (from a URL, a stale store or a control) to a valid value of its spec. */
export function coerceValue(
  spec: ParamSpec,
  raw: unknown,
): { value: number | string | boolean; valid: boolean } {
  switch (spec.kind) {
    case 'number': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) return { value: spec.default, valid: false };
      const v = clampNumber(spec, n);
      return { value: v, valid: v === n };
    }
    case 'select': {
      const ok = spec.options.some((o) => o.value === raw);
      return { value: ok ? (raw as string) : spec.default, valid: ok };
    }
    case 'boolean': {
      if (raw === true || raw === 'true' || raw === '1') return { value: true, valid: true };
      if (raw === false || raw === 'false' || raw === '0') return { value: false, valid: true };
      return { value: spec.default, valid: false };
    }
    case 'seed': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isInteger(n) || n < 0 || n > SEED_MAX) return { value: spec.default, valid: false };
      return { value: n, valid: true };
    }
  }
}

export interface ParsedParams<S extends ParamSchema> {
  values: ParamValues<S>;
  /** Keys present in the query whose values had to be corrected. */
  corrected: string[];
}

/** Read `<widgetId>.<param>` keys from a query string; unknown keys are ignored, bad values corrected. */
export function parseParamsFromQuery<S extends ParamSchema>(
  schema: S,
  widgetId: string,
  search: string,
): ParsedParams<S> {
  const query = new URLSearchParams(search);
  const values = defaultValues(schema) as Record<string, unknown>;
  const corrected: string[] = [];
  for (const [key, spec] of Object.entries(schema)) {
    const raw = query.get(`${widgetId}.${key}`);
    if (raw === null) continue;
    const { value, valid } = coerceValue(spec, raw);
    values[key] = value;
    if (!valid) corrected.push(key);
  }
  return { values: values as ParamValues<S>, corrected };
}

function serialiseValue(spec: ParamSpec, value: unknown): string {
  if (spec.kind === 'number') return String(Number((value as number).toPrecision(12)));
  return String(value);
}

/**
 * Write a widget's non-default values into a query string, leaving other widgets' keys alone.
 * Default values are omitted so that links stay short and defaults can improve later.
 */
export function writeParamsToQuery<S extends ParamSchema>(
  schema: S,
  widgetId: string,
  values: ParamValues<S>,
  search: string,
): string {
  const query = new URLSearchParams(search);
  for (const [key, spec] of Object.entries(schema)) {
    const name = `${widgetId}.${key}`;
    const v = (values as Record<string, unknown>)[key];
    if (v === spec.default) query.delete(name);
    else query.set(name, serialiseValue(spec, v));
  }
  const s = query.toString();
  return s ? `?${s}` : '';
}

/**
 * Instructor links: `<widget>.hide=a,b` hides those controls, `<widget>.lock=a,b` shows them fixed at the link's
 * values. Names are checked against the schema like every URL value; unknown names are dropped and reported.
 */
export const HIDE_FLAG = 'hide';
export const LOCK_FLAG = 'lock';

export interface LinkFlags {
  hidden: string[];
  locked: string[];
  /** Names the link gave that the widget has no control for. */
  unknown: string[];
}

function flagList(raw: string | null): string[] {
  if (raw === null) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function parseLinkFlags(schema: ParamSchema, widgetId: string, search: string): LinkFlags {
  const query = new URLSearchParams(search);
  const unknown: string[] = [];
  const pick = (flag: string) => {
    const out: string[] = [];
    for (const name of flagList(query.get(`${widgetId}.${flag}`))) {
      if (Object.hasOwn(schema, name)) {
        if (!out.includes(name)) out.push(name);
      } else if (!unknown.includes(name)) unknown.push(name.slice(0, 40));
    }
    return out;
  };
  const hidden = pick(HIDE_FLAG);
  const locked = pick(LOCK_FLAG);
  return { hidden, locked, unknown };
}

/** Write the flags (empty lists remove them), leaving every other key alone. */
export function writeLinkFlags(
  widgetId: string,
  flags: { hidden: readonly string[]; locked: readonly string[] },
  search: string,
): string {
  const query = new URLSearchParams(search);
  for (const [flag, list] of [
    [HIDE_FLAG, flags.hidden],
    [LOCK_FLAG, flags.locked],
  ] as const) {
    const name = `${widgetId}.${flag}`;
    if (list.length) query.set(name, list.join(','));
    else query.delete(name);
  }
  const s = query.toString();
  return s ? `?${s}` : '';
}
