/** Theme and motion preferences, persisted; 'system' follows the operating system. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KeyValueStorage } from './progress';

export const PREFS_KEY = 'serving-agents-lab.preferences';

export type ThemeChoice = 'light' | 'dark' | 'system';
export type MotionChoice = 'full' | 'reduced' | 'system';

export interface PreferencesState {
  theme: ThemeChoice;
  motion: MotionChoice;
  setTheme(theme: ThemeChoice): void;
  setMotion(motion: MotionChoice): void;
}

const THEMES: readonly ThemeChoice[] = ['light', 'dark', 'system'];
const MOTIONS: readonly MotionChoice[] = ['full', 'reduced', 'system'];

export function parsePreferences(stored: string | null): { theme: ThemeChoice; motion: MotionChoice } {
  const out = { theme: 'system' as ThemeChoice, motion: 'system' as MotionChoice };
  if (!stored) return out;
  try {
    const raw = JSON.parse(stored) as Record<string, unknown>;
    if (THEMES.includes(raw.theme as ThemeChoice)) out.theme = raw.theme as ThemeChoice;
    if (MOTIONS.includes(raw.motion as MotionChoice)) out.motion = raw.motion as MotionChoice;
  } catch {
    /* a corrupt record falls back to the defaults */
  }
  return out;
}

export function createPreferencesStore(storage: KeyValueStorage | null): StoreApi<PreferencesState> {
  let initial = parsePreferences(null);
  try {
    initial = parsePreferences(storage ? storage.getItem(PREFS_KEY) : null);
  } catch {
    /* storage unavailable */
  }
  const store = createStore<PreferencesState>()((set) => ({
    ...initial,
    setTheme: (theme) => set({ theme }),
    setMotion: (motion) => set({ motion }),
  }));
  if (storage) {
    store.subscribe((s) => {
      try {
        storage.setItem(PREFS_KEY, JSON.stringify({ theme: s.theme, motion: s.motion }));
      } catch {
        /* ignore */
      }
    });
  }
  return store;
}
