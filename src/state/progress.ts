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
  /**
   * The stored record belongs to a newer version of the lab: it is read as far as this version understands it
   * and never overwritten, so going back to the newer version loses nothing.
   */
  keepStored?: boolean;
}

/** A stored record larger than this was not written by the lab: it is trimmed (and the learner told). */
export const MAX_STORED_CHARS = 512 * 1024;
/** Entries kept per map at most; ids longer than MAX_ID_CHARS are not the lab's. */
export const MAX_ENTRIES = 2_000;
export const MAX_ID_CHARS = 200;

export const NOTICE_SAVE_FAILED =
  'Your progress could not be saved: this browser’s storage is full or blocked. It is kept for this visit only.';
export const NOTICE_STORAGE_BLOCKED =
  'This browser does not let the lab store anything, so your progress is kept for this visit only.';

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
      if (slug.length > MAX_ID_CHARS || Object.keys(record.lessons).length >= MAX_ENTRIES) dropped++;
      else if (isObject(v) && (v.status === 'done' || v.status === 'in-progress')) {
        const updatedAt = typeof v.updatedAt === 'number' && Number.isFinite(v.updatedAt) ? v.updatedAt : 0;
        record.lessons[slug] = { status: v.status, updatedAt };
      } else dropped++;
    }
  } else if (raw.lessons !== undefined) dropped++;
  if (isObject(raw.exercises)) {
    for (const [id, v] of Object.entries(raw.exercises)) {
      if (id.length > MAX_ID_CHARS || Object.keys(record.exercises).length >= MAX_ENTRIES) dropped++;
      else if (
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
  if (stored.length > MAX_STORED_CHARS)
    return {
      record: emptyProgress(),
      notice: `Your saved progress was ${Math.round(stored.length / 1024)} KB, far more than the lab writes, and was reset.`,
    };
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
  if (typeof raw.version === 'number' && Number.isInteger(raw.version) && raw.version > PROGRESS_VERSION) {
    // Written by a newer lab (e.g. another tab after an update): show what this version can read, touch nothing.
    return {
      record: repairV2(raw).record,
      notice:
        'Your saved progress comes from a newer version of the lab. It is kept as it is; what you do here is not ' +
        'saved. Reload the page to get the newer version.',
      keepStored: true,
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

/**
 * `storage` null means the browser refused storage (private mode, blocked cookies): the store works for the
 * visit and says so. Pass `{ quiet: true }` where no storage is expected (tests, embeds).
 */
export function createProgressStore(
  storage: KeyValueStorage | null,
  now: () => number = Date.now,
  options: { quiet?: boolean } = {},
): StoreApi<ProgressState> {
  let initial: LoadResult = {
    record: emptyProgress(),
    notice: storage || options.quiet ? null : NOTICE_STORAGE_BLOCKED,
  };
  try {
    if (storage) initial = parseProgress(storage.getItem(PROGRESS_KEY));
  } catch {
    initial = { record: emptyProgress(), notice: NOTICE_STORAGE_BLOCKED };
    storage = null;
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
  if (storage && !initial.keepStored) {
    const target = storage;
    let warned = false;
    const save = (record: ProgressRecord) => {
      try {
        target.setItem(PROGRESS_KEY, JSON.stringify(record));
      } catch {
        // Full or blocked: the learner is told once; the record stays in memory for the visit.
        if (!warned) store.setState({ notice: NOTICE_SAVE_FAILED });
        warned = true;
      }
    };
    // Persist the repaired record at once, so a corrupt one is not reported again on the next load.
    if (initial.notice) save(initial.record);
    store.subscribe((s, prev) => {
      if (s.record !== prev.record) save(s.record);
    });
  }
  return store;
}
