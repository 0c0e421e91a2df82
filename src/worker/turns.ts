/**
 * Whose turn it is in a worker. Jobs are cooperative: they compute a slice, then wait at a checkpoint. If every
 * waiting job resumed in the order it reached its checkpoint, all the jobs of a lesson page would share the worker
 * round-robin and every figure would appear at the end, together (07.12's 83 figures all waited about as long
 * as the slowest sweep). Here the most urgent waiting job goes next, so jobs finish one after another in their
 * order: a job the reader started by moving a control before the page's first requests, those first requests in
 * the order the page made them (its reading order), and figures the prose alone quotes last.
 *
 * A turn is handed out from a timer (`setTimeout(0)`), so messages (a cancel, the watchdog's ping, a new call)
 * are answered between any two slices. A cancelled job goes first, so that it stops at once. Whatever waits on
 * something else (a run another job computes, a frame the page has not taken) is not in the queue, so it can
 * never hold the turn from the job it waits for.
 */

/** How urgent a job is: smaller first. Its class (Priority) first, then the order the page asked for it. */
export type Rank = number;

export const PRIORITY = {
  /** A request made after the first one of a widget or figure: the reader moved a control. */
  interactive: 0,
  /** A widget's or a figure's first request, as the page loads. */
  initial: 1,
  /**
   * A figure the prose quotes at settings no widget shows (another node, another tool): after every widget's and
   * figure's first request, since the widgets are what the reader works with.
   */
  deferred: 2,
} as const;
export type Priority = keyof typeof PRIORITY;

/** Jobs in one class are ordered by their number (the client numbers its calls in order); 2³² apart per class. */
export function rankOf(priority: Priority, jobNumber: number): Rank {
  return PRIORITY[priority] * 2 ** 32 + jobNumber;
}

/** What a waiter ranks by when its turn is decided: cancelled work first (it only has to stop). */
export interface TurnTaker {
  isCancelled(): boolean;
  /** Absent: the most urgent (a direct call from a test or the command line). */
  readonly rank?: Rank;
}

/** The rank of work shared by several jobs: its most urgent live job's; −∞ when every one is cancelled. */
export function sharedRank(takers: readonly TurnTaker[]): Rank {
  let best = Infinity;
  let live = false;
  for (const t of takers) {
    if (t.isCancelled()) continue;
    live = true;
    const r = t.rank ?? 0;
    if (r < best) best = r;
  }
  return live ? best : -Infinity;
}

interface Waiter {
  rank: () => Rank;
  /** Whose work it is (a job, or a run shared by jobs): what its slices' time is counted against. */
  owner: object;
  /** Push order, for two waiters of the same rank (two runs of one job). */
  seq: number;
  go: () => void;
}

/**
 * Work that has had less than this much time goes before work of its class that has had more: a figure that needs
 * a fraction of a second is not kept waiting behind a sweep of ten seconds that the page asked for first (taking
 * turns strictly in order would make it wait the whole sweep). Past it, work goes in rank order.
 */
export const SHORT_WORK_MS = 250;

export class TurnQueue {
  private readonly waiting: Waiter[] = [];
  private seq = 0;
  /** Time each owner's slices have taken so far. */
  private readonly used = new WeakMap<object, number>();
  /** The slice running now: whose, and since when. */
  private running: { owner: object; since: number } | null = null;

  constructor(
    /** How a turn is handed out later (a timer in the worker; a test may pass its own). */
    private readonly later: (fn: () => void) => void = (fn) => setTimeout(fn, 0),
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Resolves when it is the turn of `owner`'s work, ranked by `rank()` (read when the turn is decided, as it may
   * change). Called at the end of a slice: the slice's time counts against its owner.
   */
  wait(rank: () => Rank, owner: object): Promise<void> {
    const r = this.running;
    if (r && r.owner === owner) {
      this.used.set(owner, (this.used.get(owner) ?? 0) + (this.now() - r.since));
      this.running = null;
    }
    return new Promise((go) => {
      this.waiting.push({ rank, owner, seq: this.seq++, go });
      // One hand-out per waiter, so every waiter gets its turn eventually.
      this.later(() => this.handOut());
    });
  }

  /** Waiters now (for tests and diagnostics). */
  get size(): number {
    return this.waiting.length;
  }

  /** The order turns are given in: class (from the rank), then short work first, then rank, then push order. */
  private key(w: Waiter): [number, number, number] {
    const rank = w.rank();
    if (rank === -Infinity) return [-Infinity, 0, 0]; // cancelled: let it stop
    const cls = Math.floor(rank / 2 ** 32);
    const long = (this.used.get(w.owner) ?? 0) >= SHORT_WORK_MS ? 1 : 0;
    return [cls, long, rank];
  }

  private handOut(): void {
    const w = this.waiting;
    if (w.length === 0) return;
    let best = 0;
    let bestKey = this.key(w[0]);
    for (let i = 1; i < w.length; i++) {
      const k = this.key(w[i]);
      const before =
        k[0] !== bestKey[0]
          ? k[0] < bestKey[0]
          : k[1] !== bestKey[1]
            ? k[1] < bestKey[1]
            : k[2] !== bestKey[2]
              ? k[2] < bestKey[2]
              : w[i].seq < w[best].seq;
      if (before) {
        best = i;
        bestKey = k;
      }
    }
    const [next] = w.splice(best, 1);
    this.running = { owner: next.owner, since: this.now() };
    next.go();
  }
}

/** The worker's one queue: every job and every shared run of this worker waits in it. */
export const workerTurns = new TurnQueue();

/** Wait for the turn of work done for `takers` (one job, or the jobs sharing a run), owned by `owner`. */
export function takeTurn(takers: readonly TurnTaker[], owner: object): Promise<void> {
  return workerTurns.wait(() => sharedRank(takers), owner);
}
