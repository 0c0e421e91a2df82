/**
 * A request a worker method refuses, with the reason in the reader's words. Comlink carries its name and message
 * back to the widget, which shows the message where the reader is looking; every method throws this one class.
 */
import { limitRefusal, type Limit } from '../sim/engine/limits';
import { CatalogError } from '../sim/engine/catalog/index';
import type { Steps } from '../sim/engine/cooperative';

export class BadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadRequest';
  }
}

/** A request field inside the range its method accepts (the `Limit` the controls offer from), or a BadRequest. */
export function within(limit: Limit, value: unknown): number {
  const why = limitRefusal(limit, value);
  if (why) throw new BadRequest(why);
  return value as number;
}

/**
 * Runs core code on a request's values and turns the errors the core throws for values it refuses (a catalog id
 * it does not know, a range it does not take) into a BadRequest. `explain` words a method's own error classes;
 * anything else is a fault and propagates as it is.
 */
export function asRefusal<T>(run: () => T, explain: (e: unknown) => string | undefined = () => undefined): T {
  try {
    return run();
  } catch (e) {
    throw refused(e, explain);
  }
}

/** asRefusal for a cooperative computation: the core's refusal becomes the request's error where it is thrown. */
export function* asRefusalSteps<T>(steps: Steps<T>): Steps<T> {
  try {
    return yield* steps;
  } catch (e) {
    throw refused(e, () => undefined);
  }
}

/** What to throw for an error the core threw: a BadRequest when it refuses a value, else the error itself. */
function refused(e: unknown, explain: (e: unknown) => string | undefined): unknown {
  if (e instanceof BadRequest) return e;
  const why = e instanceof CatalogError || e instanceof RangeError ? e.message : explain(e);
  return why === undefined ? e : new BadRequest(why);
}
