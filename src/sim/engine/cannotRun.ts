/**
 * A setting the core cannot compute (the weights and the engine's reserve fill the GPUs, a policy needs a tier that
 * is not there), as an outcome rather than an error: the reason in the reader's words with the figures that make it
 * so, and the nearest changes that would run. A widget draws it as a state of its picture (src/widgets/kit/CannotRun.tsx).
 */

/** One change that makes the setting run: a label for its button and the request fields it sets. */
export interface CannotRunFix {
  label: string;
  /** Fields of the computation's request (not a widget's parameter names; a widget maps them). */
  set: Record<string, number | string | boolean>;
}

export interface CannotRun {
  kind: 'cannot-run';
  /** Why, in the reader's words, with the figures the core computed. */
  reason: string;
  /** Changes that would run, nearest first (none where no single change does). */
  fixes: CannotRunFix[];
}

export function cannotRun(reason: string, fixes: CannotRunFix[] = []): CannotRun {
  return { kind: 'cannot-run', reason, fixes };
}

export function isCannotRun(x: unknown): x is CannotRun {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'cannot-run';
}

/** The computed result, for callers whose settings are known to run (tests, the lessons' fixed figures). */
export function computedOrThrow<T>(x: T | CannotRun): T {
  if (isCannotRun(x)) throw new Error(`cannot run: ${x.reason}`);
  return x;
}
