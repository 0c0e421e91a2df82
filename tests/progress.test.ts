import { describe, expect, it } from 'vitest';
import {
  createProgressStore,
  parseProgress,
  MAX_ENTRIES,
  MAX_STORED_CHARS,
  NOTICE_SAVE_FAILED,
  NOTICE_STORAGE_BLOCKED,
  PROGRESS_KEY,
  type KeyValueStorage,
} from '../src/state/progress';
import { parsePreferences } from '../src/state/preferences';

function memory(initial: Record<string, string> = {}): KeyValueStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
}

describe('progress persistence', () => {
  it('starts empty with no notice', () => {
    expect(parseProgress(null)).toEqual({ record: { version: 2, lessons: {}, exercises: {} }, notice: null });
  });

  it('resets corrupt JSON with a notice', () => {
    const r = parseProgress('{not json');
    expect(r.record.lessons).toEqual({});
    expect(r.notice).toMatch(/could not be read/);
  });

  it('migrates version 1', () => {
    const r = parseProgress(JSON.stringify({ version: 1, done: ['07-01-the-agent-workload'] }));
    expect(r.record.lessons['07-01-the-agent-workload'].status).toBe('done');
    expect(r.notice).toMatch(/upgraded/);
  });

  it('repairs damaged entries and keeps the good ones', () => {
    const r = parseProgress(
      JSON.stringify({
        version: 2,
        lessons: { a: { status: 'done', updatedAt: 5 }, b: { status: 'bogus' } },
        exercises: { x: { answer: 3, correct: true, attempts: 2 }, y: { answer: 'no' } },
      }),
    );
    expect(Object.keys(r.record.lessons)).toEqual(['a']);
    expect(Object.keys(r.record.exercises)).toEqual(['x']);
    expect(r.notice).toMatch(/2 damaged entries/);
  });

  it('resets an unknown version', () => {
    expect(parseProgress(JSON.stringify({ version: 0 })).notice).toMatch(/unknown version/);
    expect(parseProgress(JSON.stringify({ version: 'x' })).notice).toMatch(/unknown version/);
  });

  it('keeps a record from a newer version untouched, reads what it can, and says so', () => {
    const newer = JSON.stringify({
      version: 3,
      lessons: { a: { status: 'done', updatedAt: 5 } },
      exercises: {},
      futureField: [1, 2, 3],
    });
    const storage = memory({ [PROGRESS_KEY]: newer });
    const store = createProgressStore(storage, () => 1000);
    expect(store.getState().notice).toMatch(/newer version/);
    expect(store.getState().record.lessons.a.status).toBe('done');
    store.getState().setLessonStatus('b', 'done');
    store.getState().recordExercise('e', 1, true);
    expect(storage.data[PROGRESS_KEY]).toBe(newer);
  });

  it('trims a tampered or oversized record with a notice', () => {
    const huge = JSON.stringify({
      version: 2,
      lessons: {},
      exercises: {},
      pad: 'x'.repeat(MAX_STORED_CHARS),
    });
    expect(parseProgress(huge).notice).toMatch(/far more than the lab writes/);
    const many: Record<string, unknown> = {};
    for (let i = 0; i < MAX_ENTRIES + 5; i++) many[`e${i}`] = { answer: i, correct: true, attempts: 1 };
    many['z'.repeat(300)] = { answer: 1, correct: true, attempts: 1 };
    const r = parseProgress(JSON.stringify({ version: 2, lessons: {}, exercises: many }));
    expect(Object.keys(r.record.exercises)).toHaveLength(MAX_ENTRIES);
    expect(r.notice).toMatch(/6 damaged entries/);
  });

  it('tells the learner once when saving fails, and keeps the progress in memory', () => {
    let writes = 0;
    const full: KeyValueStorage = {
      getItem: () => null,
      setItem: () => {
        writes++;
        throw new Error('QuotaExceededError');
      },
    };
    const store = createProgressStore(full);
    expect(store.getState().notice).toBeNull();
    store.getState().setLessonStatus('a', 'done');
    expect(store.getState().notice).toBe(NOTICE_SAVE_FAILED);
    store.getState().dismissNotice();
    store.getState().setLessonStatus('b', 'done');
    expect(writes).toBe(2);
    expect(store.getState().notice).toBeNull();
    expect(store.getState().record.lessons.b.status).toBe('done');
  });

  it('says when the browser gives no storage at all (unless told to be quiet)', () => {
    expect(createProgressStore(null).getState().notice).toBe(NOTICE_STORAGE_BLOCKED);
    expect(createProgressStore(null, Date.now, { quiet: true }).getState().notice).toBeNull();
  });

  it('persists changes and writes back a repaired record at once', () => {
    const storage = memory({ [PROGRESS_KEY]: '][' });
    const store = createProgressStore(storage, () => 1000);
    expect(store.getState().notice).not.toBeNull();
    expect(JSON.parse(storage.data[PROGRESS_KEY]).version).toBe(2);
    store.getState().touchLesson('l1');
    store.getState().setLessonStatus('l2', 'done');
    store.getState().touchLesson('l2');
    store.getState().recordExercise('e1', 42, false);
    store.getState().recordExercise('e1', 43, true);
    const saved = JSON.parse(storage.data[PROGRESS_KEY]);
    expect(saved.lessons.l1.status).toBe('in-progress');
    expect(saved.lessons.l2.status).toBe('done');
    expect(saved.exercises.e1).toEqual({ answer: 43, correct: true, attempts: 2 });
    const again = createProgressStore(storage);
    expect(again.getState().notice).toBeNull();
    expect(again.getState().record.lessons.l2.status).toBe('done');
  });

  it('survives storage that throws', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    const store = createProgressStore(broken);
    expect(() => store.getState().setLessonStatus('a', 'done')).not.toThrow();
    expect(store.getState().record.lessons.a.status).toBe('done');
  });

  it('falls back to default preferences for bad records', () => {
    expect(parsePreferences('{"theme":"neon","motion":"reduced"}')).toEqual({
      theme: 'system',
      motion: 'reduced',
    });
    expect(parsePreferences('garbage')).toEqual({ theme: 'system', motion: 'system' });
  });
});
