/**
 * Identical requests share one job. A lesson page asks for the same computation from several places at once
 * (a prose figure quoted three times, a table and the figure beside it): without sharing, each is a separate
 * fleet run on a worker the widgets are waiting for. A shared job is cancelled only when every caller that
 * asked for it has cancelled; its result (or error) goes to all of them.
 */
import { PRIORITY, type Priority } from './turns';

export interface SharedJob<R> {
  result: Promise<R>;
  cancel(): void;
  /** Make the job as urgent as `priority` (a caller that moved a control joined it). */
  raise?(priority: Priority): void;
}

interface Entry<R> {
  job: SharedJob<R>;
  callers: number;
  priority: Priority;
}

export class JobSharing {
  private readonly inFlight = new Map<string, Entry<unknown>>();

  /**
   * Run `start()` for `key`, or join the job already running for it. `own`: always start a job of one's own
   * (a caller that streams frames must see them from the first), which later callers without frames may join.
   */
  join<R>(key: string, start: () => SharedJob<R>, own = false, priority: Priority = 'initial'): SharedJob<R> {
    let entry = own ? undefined : (this.inFlight.get(key) as Entry<R> | undefined);
    if (entry && PRIORITY[priority] < PRIORITY[entry.priority]) {
      entry.priority = priority;
      entry.job.raise?.(priority);
    }
    if (!entry) {
      const job = start();
      const created: Entry<R> = { job, callers: 0, priority };
      entry = created;
      this.inFlight.set(key, created as Entry<unknown>);
      const forget = () => {
        if (this.inFlight.get(key) === (created as Entry<unknown>)) this.inFlight.delete(key);
      };
      job.result.then(forget, forget);
    }
    const joined = entry;
    joined.callers++;
    let left = false;
    return {
      result: joined.job.result,
      cancel: () => {
        if (left) return;
        left = true;
        joined.callers--;
        if (joined.callers === 0) {
          if (this.inFlight.get(key) === (joined as Entry<unknown>)) this.inFlight.delete(key);
          joined.job.cancel();
        }
      },
    };
  }

  /** Jobs running now (for tests). */
  get size(): number {
    return this.inFlight.size;
  }
}
