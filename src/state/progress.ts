/**
 * Learner progress, persisted in localStorage under a schema version. A record from an older version is
 * migrated; a corrupt one is repaired where possible or reset, and the learner is told which.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export const PROGRESS_KEY = 'serving-agents-lab.progress';
export const PROGRESS_VERSION = 2;

export type LessonStatus = 'in-progress' | 'done';

export interface ExerciseRecord {
  answer: number;
  correct: boolean;
  attempts: number;
}

export interface ProgressRecord {
  version: typeof PROGRESS_VERSION;
  lessons: Record<string, { status: LessonStatus; updatedAt: number }>;
  exercises: Record<string, ExerciseRecord>;
}

/** Version 1 kept only the list of finished lessons. */
interface ProgressRecordV1 {
  version: 1;
  done: string[];
}

export interface LoadResult {
  record: ProgressRecord;
  /** Set when the stored record could not be used as it was. */
  notice: string | null;
}

export function emptyProgress(): ProgressRecord {
  return { version: PROGRESS_VERSION, lessons: {}, exercises: {} };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Keep every entry that is well formed; report whether anything had to be dropped. */
function repairV2(raw: Record<string, unknown>): { record: ProgressRecord; dropped: number } {
  const record = emptyProgress();
  let dropped = 0;
  if (isObject(raw.lessons)) {
    for (const [slug, v] of Object.entries(raw.lessons)) {
      if (isObject(v) && (v.status === 'done' || v.status === 'in-progress')) {
        const updatedAt = typeof v.updatedAt === 'number' && Number.isFinite(v.updatedAt) ? v.updatedAt : 0;
        record.lessons[slug] = { status: v.status, updatedAt };
      } else dropped++;
    }
  } else if (raw.lessons !== undefined) dropped++;
  if (isObject(raw.exercises)) {
    for (const [id, v] of Object.entries(raw.exercises)) {
      if (
        isObject(v) &&
        typeof v.answer === 'number' &&
        Number.isFinite(v.answer) &&
        typeof v.correct === 'boolean'
      ) {
        const attempts = typeof v.attempts === 'number' && v.attempts >= 0 ? Math.floor(v.attempts) : 1;
        record.exercises[id] = { answer: v.answer, correct: v.correct, attempts };
      } else dropped++;
    }
  } else if (raw.exercises !== undefined) dropped++;
  return { record, dropped };
}

function migrateV1(raw: ProgressRecordV1): ProgressRecord {
  const record = emptyProgress();
  for (const slug of raw.done)
    if (typeof slug === 'string') record.lessons[slug] = { status: 'done', updatedAt: 0 };
  return record;
}

/** Parse whatever is stored into a valid record. Never throws. */
export function parseProgress(stored: string | null): LoadResult {
  if (stored === null) return { record: emptyProgress(), notice: null };
  let raw: unknown;
  try {
    raw = JSON.parse(stored);
  } catch {
    return { record: emptyProgress(), notice: 'Your saved progress could not be read and was reset.' };
  }
  if (!isObject(raw))
    return { record: emptyProgress(), notice: 'Your saved progress was not valid and was reset.' };
  if (raw.version === 1 && Array.isArray(raw.done)) {
    return {
      record: migrateV1(raw as unknown as ProgressRecordV1),
      notice: 'Your saved progress was upgraded to the new format.',
    };
  }
  if (raw.version === PROGRESS_VERSION) {
    const { record, dropped } = repairV2(raw);
    return {
      record,
      notice:
        dropped > 0
          ? `Your saved progress had ${dropped} damaged entr${dropped === 1 ? 'y' : 'ies'}; the rest was kept.`
          : null,
    };
  }
  return {
    record: emptyProgress(),
    notice: 'Your saved progress came from an unknown version and was reset.',
  };
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ProgressState {
  record: ProgressRecord;
  notice: string | null;
  dismissNotice(): void;
  setLessonStatus(slug: string, status: LessonStatus | null): void;
  /** Mark a lesson in progress unless it is already done. */
  touchLesson(slug: string): void;
  recordExercise(id: string, answer: number, correct: boolean): void;
  resetAll(): void;
}

export function createProgressStore(
  storage: KeyValueStorage | null,
  now: () => number = Date.now,
): StoreApi<ProgressState> {
  let initial: LoadResult = { record: emptyProgress(), notice: null };
  try {
    initial = parseProgress(storage ? storage.getItem(PROGRESS_KEY) : null);
  } catch {
    initial = { record: emptyProgress(), notice: 'Saved progress is unavailable in this browser.' };
  }
  const store = createStore<ProgressState>()((set, get) => ({
    record: initial.record,
    notice: initial.notice,
    dismissNotice: () => set({ notice: null }),
    setLessonStatus(slug, status) {
      const lessons = { ...get().record.lessons };
      if (status === null) delete lessons[slug];
      else lessons[slug] = { status, updatedAt: now() };
      set({ record: { ...get().record, lessons } });
    },
    touchLesson(slug) {
      if (get().record.lessons[slug]) return;
      get().setLessonStatus(slug, 'in-progress');
    },
    recordExercise(id, answer, correct) {
      const prev = get().record.exercises[id];
      const exercises = {
        ...get().record.exercises,
        [id]: { answer, correct, attempts: (prev?.attempts ?? 0) + 1 },
      };
      set({ record: { ...get().record, exercises } });
    },
    resetAll: () => set({ record: emptyProgress() }),
  }));
  if (storage) {
    // Persist the repaired record at once, so a corrupt one is not reported again on the next load.
    const save = (record: ProgressRecord) => {
      try {
        storage.setItem(PROGRESS_KEY, JSON.stringify(record));
      } catch {
        /* storage full or disabled: progress lives for this visit only */
      }
    };
    if (initial.notice) save(initial.record);
    store.subscribe((s, prev) => {
      if (s.record !== prev.record) save(s.record);
    });
  }
  return store;
}
