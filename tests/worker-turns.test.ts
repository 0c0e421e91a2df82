/** Whose turn it is in a worker (src/worker/turns.ts): the most urgent waiting job goes next. */
import { describe, expect, it } from 'vitest';
import { rankOf, sharedRank, SHORT_WORK_MS, TurnQueue, type TurnTaker } from '../src/worker/turns';

/** A clock that only moves when a slice says it took time. */
let clock = 0;
const queue = () =>
  new TurnQueue(
    (fn) => setTimeout(fn, 0),
    () => clock,
  );

/** A job of `slices` slices of `sliceMs` each that waits for its turn between them, logging each slice. */
async function job(q: TurnQueue, name: string, taker: TurnTaker, slices: number, log: string[], sliceMs = 0) {
  for (let i = 0; i < slices; i++) {
    if (i > 0) await q.wait(() => sharedRank([taker]), taker);
    if (taker.isCancelled()) {
      log.push(`${name}:stopped`);
      return;
    }
    log.push(`${name}${i}`);
    clock += sliceMs;
  }
}

const taker = (rank: number, cancelled = () => false): TurnTaker => ({ rank, isCancelled: cancelled });

describe('TurnQueue', () => {
  it('runs waiting jobs one after another by rank, not round-robin', async () => {
    const q = queue();
    const log: string[] = [];
    await Promise.all([
      job(q, 'a', taker(rankOf('initial', 3)), 3, log),
      job(q, 'b', taker(rankOf('initial', 1)), 3, log),
      job(q, 'c', taker(rankOf('initial', 2)), 3, log),
    ]);
    // Each runs its first slice when it starts; from then on the most urgent waiting one goes next.
    expect(log).toEqual(['a0', 'b0', 'c0', 'b1', 'b2', 'c1', 'c2', 'a1', 'a2']);
    expect(q.size).toBe(0);
  });

  it('puts a job that follows a moved control before every first request, whatever its number', async () => {
    const q = queue();
    const log: string[] = [];
    await Promise.all([
      job(q, 'first', taker(rankOf('initial', 1)), 3, log),
      job(q, 'moved', taker(rankOf('interactive', 40)), 3, log),
    ]);
    expect(log).toEqual(['first0', 'moved0', 'moved1', 'moved2', 'first1', 'first2']);
  });

  it('gives a cancelled job its turn first, so it stops at once', async () => {
    const q = queue();
    const log: string[] = [];
    let cancelled = false;
    const late = job(
      q,
      'late',
      taker(rankOf('initial', 9), () => cancelled),
      3,
      log,
    );
    const early = job(q, 'early', taker(rankOf('initial', 1)), 3, log);
    cancelled = true;
    await Promise.all([late, early]);
    expect(log).toEqual(['late0', 'early0', 'late:stopped', 'early1', 'early2']);
  });

  it('reads a rank when the turn is decided: a job raised while waiting goes sooner', async () => {
    const q = queue();
    const log: string[] = [];
    const raised = { rank: rankOf('initial', 5), isCancelled: () => false };
    const a = job(q, 'a', taker(rankOf('initial', 2)), 3, log);
    const b = job(q, 'b', raised, 3, log);
    raised.rank = rankOf('interactive', 5);
    await Promise.all([a, b]);
    expect(log).toEqual(['a0', 'b0', 'b1', 'b2', 'a1', 'a2']);
  });
});

describe('short work', () => {
  it('goes before longer work the page asked for first, which then goes on in order', async () => {
    const q = queue();
    const log: string[] = [];
    const slice = SHORT_WORK_MS / 2 + 1; // two slices make a job long
    const long = job(q, 'long', taker(rankOf('initial', 1)), 5, log, slice);
    const later = job(q, 'later', taker(rankOf('initial', 2)), 4, log, slice);
    const short = job(q, 'short', taker(rankOf('initial', 3)), 2, log, 1);
    await Promise.all([long, later, short]);
    // The first slices run as each job starts (outside the queue, so not counted); then `long` until two counted
    // slices have made it long, `later` likewise, then `short`, then the long ones in rank order.
    expect(log).toEqual([
      'long0',
      'later0',
      'short0',
      'long1',
      'long2',
      'later1',
      'later2',
      'short1',
      'long3',
      'long4',
      'later3',
    ]);
  });

  it('never goes before a moved control', async () => {
    const q = queue();
    const log: string[] = [];
    const moved = job(q, 'moved', taker(rankOf('interactive', 9)), 3, log, SHORT_WORK_MS);
    const short = job(q, 'short', taker(rankOf('initial', 1)), 2, log, 1);
    await Promise.all([moved, short]);
    expect(log).toEqual(['moved0', 'short0', 'moved1', 'moved2', 'short1']);
  });
});

describe('sharedRank', () => {
  it('is the most urgent live job’s rank; −∞ once every job has been cancelled; 0 for a direct call', () => {
    expect(sharedRank([taker(7), taker(3), taker(1, () => true)])).toBe(3);
    expect(sharedRank([taker(7, () => true)])).toBe(-Infinity);
    expect(sharedRank([{ isCancelled: () => false }])).toBe(0);
  });
});
