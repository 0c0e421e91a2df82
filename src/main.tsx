import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'katex/dist/katex.min.css';
import './styles/app.css';
import './styles/print.css';
import './widgets/kit/charts/charts.css';
import './widgets/kit/tables.css';
import { App } from './app/App';
import { ServicesProvider, type Services } from './app/services';
import { createProgressStore } from './state/progress';
import { createPreferencesStore } from './state/preferences';
import { SimClient } from './worker/client';
import { matchRoute } from './app/router';
import { registerOfflineCache } from './offline/register';

function storage(): Storage | null {
  try {
    const s = window.localStorage;
    s.getItem('probe');
    return s;
  } catch {
    return null;
  }
}

const services: Services = {
  progress: createProgressStore(storage()),
  preferences: createPreferencesStore(storage()),
  sim: new SimClient(),
};

// A lesson or widget page needs the workers: start them now, so their module loads while React renders the
// page (a lesson reached from the home page starts them in LessonPage).
{
  const route = matchRoute(window.location.pathname).kind;
  if (route === 'lesson' || route === 'widget') services.sim.warm();
}

// Handles for browser tests and the curious (debugHandles.ts): only in development builds and in the build the
// browser tests drive (VITE_SAL_DEBUG=1, set by scripts/test-all.mjs); a production build leaves the module out.
if (import.meta.env.DEV || import.meta.env.VITE_SAL_DEBUG === '1')
  void import('./debugHandles').then((m) => m.installDebugHandles(services));

registerOfflineCache();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServicesProvider services={services}>
      <App />
    </ServicesProvider>
  </StrictMode>,
);
