/**
 * The range a computation accepts for one numeric request field, declared once beside the computation: its check
 * refuses anything outside it in the reader's words, and a widget's control spreads the same range (or offers a
 * narrower one inside it, src/widgets/kit/controlRange.ts), so a control never offers a value the core refuses.
 */

export interface Limit {
  readonly min: number;
  readonly max: number;
  /** Whole numbers only. */
  readonly integer?: boolean;
  /** What the field is, in the reader's words, as a refusal names it ("the chunk size"). */
  readonly what: string;
  /** The unit a refusal writes after the range ("tokens", "s"). */
  readonly unit?: string;
}

export function limit(
  what: string,
  min: number,
  max: number,
  opts: { integer?: boolean; unit?: string } = {},
): Limit {
  if (!(min <= max)) throw new Error(`limit for ${what}: min ${min} is above max ${max}`);
  return { what, min, max, ...opts };
}

/** A figure as a refusal writes it: grouped digits, never e-notation; a whole number exactly, as it was given. */
function plain(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  return x.toLocaleString('en-US', { maximumSignificantDigits: 6 });
}

export function withinLimit(l: Limit, v: unknown): v is number {
  return (
    typeof v === 'number' &&
    Number.isFinite(v) &&
    v >= l.min &&
    v <= l.max &&
    (!l.integer || Number.isInteger(v))
  );
}

/** Null when `v` is inside the limit, else why not in the reader's words. */
export function limitRefusal(l: Limit, v: unknown): string | null {
  if (withinLimit(l, v)) return null;
  const what = l.what.charAt(0).toUpperCase() + l.what.slice(1);
  const unit = l.unit ? ` ${l.unit}` : '';
  const got = typeof v === 'number' ? plain(v) : (JSON.stringify(v) ?? String(v));
  return `${what} takes ${l.integer ? 'whole numbers' : 'values'} from ${plain(l.min)} to ${plain(l.max)}${unit}, not ${got}.`;
}

/** Refuse `v` outside `l`: a RangeError whose message is limitRefusal's, for the reader. */
export function refuseOutside(l: Limit, v: unknown): void {
  const why = limitRefusal(l, v);
  if (why) throw new RangeError(why);
}

/** refuseOutside for each of `keys`, in order: `x[k]` against `limits[k]`. */
export function refuseOutsideEach<K extends string>(
  limits: Readonly<Record<K, Limit>>,
  x: Readonly<Record<K, unknown>>,
  keys: readonly K[],
): void {
  for (const k of keys) refuseOutside(limits[k], x[k]);
}
