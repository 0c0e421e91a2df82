/**
 * The app's long-lived services (stores and the worker client), created once by <App> and handed down
 * through context: no module-level mutable singletons, so tests can create their own.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import type { ProgressState } from '../state/progress';
import type { PreferencesState } from '../state/preferences';
import type { SimClient } from '../worker/client';

export interface Services {
  progress: StoreApi<ProgressState>;
  preferences: StoreApi<PreferencesState>;
  sim: SimClient;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices must be used inside <ServicesProvider>');
  return s;
}

export function useProgress<T>(selector: (s: ProgressState) => T): T {
  return useStore(useServices().progress, selector);
}

export function usePreferences<T>(selector: (s: PreferencesState) => T): T {
  return useStore(useServices().preferences, selector);
}

export function useSimClient(): SimClient {
  return useServices().sim;
}
