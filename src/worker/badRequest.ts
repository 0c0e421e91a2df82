/**
 * A request a worker method refuses, with the reason in the reader's words. Comlink carries its name and message
 * back to the widget, which shows the message where the reader is looking; every method throws this one class.
 */
import { limitRefusal, type Limit } from '../sim/engine/limits';

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
