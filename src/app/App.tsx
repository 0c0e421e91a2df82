import { useEffect, useState } from 'react';
import { MDXProvider } from '@mdx-js/react';
import { Home } from './Home';
import { LessonPage } from './LessonPage';
import { NotFound } from './NotFound';
import { GlossaryPage } from './glossary/GlossaryPage';
import { WidgetPage } from './WidgetPage';
import { ErrorBoundary } from '../widgets/kit/ErrorBoundary';
import { Link } from './Link';
import { matchRoute, usePathname } from './router';
import { usePreferences, useProgress, useServices } from './services';
import { mdxComponents } from './mdxComponents';
import type { MotionChoice, ThemeChoice } from '../state/preferences';
import { useOfflineReady } from '../offline/register';
import { KeyboardHelp, KeyboardHelpButton } from './keyboard/KeyboardHelp';

function useSystemMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const on = () => setMatches(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, [query]);
  return matches;
}

/** Applies the theme and motion preferences to the document root, where the CSS reads them. */
function PreferenceEffects() {
  const theme = usePreferences((s) => s.theme);
  const motion = usePreferences((s) => s.motion);
  const systemDark = useSystemMedia('(prefers-color-scheme: dark)');
  const systemReduced = useSystemMedia('(prefers-reduced-motion: reduce)');
  useEffect(() => {
    document.documentElement.dataset.theme = theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
  }, [theme, systemDark]);
  useEffect(() => {
    document.documentElement.dataset.motion =
      motion === 'system' ? (systemReduced ? 'reduced' : 'full') : motion;
  }, [motion, systemReduced]);
  return null;
}

function PreferenceControls() {
  const { preferences } = useServices();
  const theme = usePreferences((s) => s.theme);
  const motion = usePreferences((s) => s.motion);
  return (
    <div className="prefs">
      <label>
        <span className="visually-hidden">Theme</span>
        <select
          aria-label="Theme"
          value={theme}
          onChange={(e) => preferences.getState().setTheme(e.currentTarget.value as ThemeChoice)}
        >
          <option value="system">Theme: system</option>
          <option value="light">Theme: light</option>
          <option value="dark">Theme: dark</option>
        </select>
      </label>
      <label>
        <span className="visually-hidden">Motion</span>
        <select
          aria-label="Motion"
          value={motion}
          onChange={(e) => preferences.getState().setMotion(e.currentTarget.value as MotionChoice)}
        >
          <option value="system">Motion: system</option>
          <option value="full">Motion: full</option>
          <option value="reduced">Motion: reduced</option>
        </select>
      </label>
    </div>
  );
}

function ProgressNotice() {
  const notice = useProgress((s) => s.notice);
  const { progress } = useServices();
  if (!notice) return null;
  return (
    <div className="notice" role="alert" data-notice="progress">
      <span>{notice}</span>
      <button type="button" onClick={() => progress.getState().dismissNotice()}>
        Dismiss
      </button>
    </div>
  );
}

/** Says so once the lab is stored for use without a network (offline/register.ts). */
function OfflineNote() {
  const ready = useOfflineReady();
  return ready ? <span data-offline="ready"> · stored in this browser: it works offline</span> : null;
}

export function App() {
  const pathname = usePathname();
  const route = matchRoute(pathname);
  if (route.kind === 'widget') {
    // A widget alone (iframe, slide): no site header, notices or footer around it.
    return (
      <MDXProvider components={mdxComponents}>
        <PreferenceEffects />
        <KeyboardHelp>
          <ErrorBoundary what="this page" resetKey={pathname}>
            <WidgetPage key={route.id} id={route.id} />
          </ErrorBoundary>
        </KeyboardHelp>
      </MDXProvider>
    );
  }
  return (
    <MDXProvider components={mdxComponents}>
      <PreferenceEffects />
      <KeyboardHelp>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <Link href="/" className="site-title">
            Serving Agents Lab
          </Link>
          <nav className="site-nav" aria-label="Site">
            <Link href="/glossary">Glossary</Link>
          </nav>
          <PreferenceControls />
        </header>
        <ProgressNotice />
        <ErrorBoundary what="this page" resetKey={pathname}>
          {route.kind === 'home' ? (
            <Home />
          ) : route.kind === 'lesson' ? (
            <LessonPage key={route.slug} slug={route.slug} />
          ) : route.kind === 'glossary' ? (
            <GlossaryPage />
          ) : (
            <NotFound path={route.path} />
          )}
        </ErrorBoundary>
        <footer className="site-footer">
          <div>
            Serving Agents Lab · every figure is computed by the simulation core in a web worker or cited to
            its source ·{' '}
            <a href="https://github.com/kvcache-ai/Mooncake" rel="noreferrer">
              Mooncake traces (Apache-2.0)
            </a>
            <OfflineNote />
            {' · '}
            <KeyboardHelpButton />
          </div>
        </footer>
      </KeyboardHelp>
    </MDXProvider>
  );
}
