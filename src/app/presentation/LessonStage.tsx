/**
 * The lesson's stage (widgets/kit/stage.ts) and presentation mode. `?present` in the URL (or the Present button)
 * puts the document root in `data-present`: projector layout from the stylesheet, type at a zoom for the window
 * (`projectedZoom`: 1.5× on a 1920 × 1080 screen, in proportion on any other, never under reading size) and charts
 * at a larger one (`projectedChartZoom`: 2.25× there, 1.5× on a 1280 × 720 projector),
 * and →/← PageDown/PageUp moving one screen (the title, each section, each widget) at a time while every control
 * stays live; a screen taller than the window (a widget, on a projector) a window at a time (keys.ts).
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useWindowSize } from '../../widgets/kit/charts/useWindowSize';
import { ChartZoomContext, projectedChartZoom, projectedZoom } from '../../widgets/kit/charts/zoom';
import { createStageRegistry, StageContext, type StageRegistry } from '../../widgets/kit/stage';
import { useIdle } from '../../widgets/kit/useIdle';
import { replaceSearch, useSearch } from '../router';
import {
  currentScreen,
  focusKind,
  presentKeyAction,
  presentScrollTarget,
  type PresentAction,
  type ScreenBox,
} from './keys';

export function isPresenting(search: string): boolean {
  return new URLSearchParams(search).has('present');
}

export function withPresent(search: string, on: boolean): string {
  const q = new URLSearchParams(search);
  if (on) q.set('present', '');
  else q.delete('present');
  const s = q.toString().replace(/(^|&)present=(&|$)/, '$1present$2');
  return s ? `?${s}` : '';
}

function useScreensCount(stage: StageRegistry): number {
  const [n, setN] = useState(0);
  useEffect(() => {
    const read = () => setN(stage.screens().length);
    read();
    return stage.subscribe(read);
  }, [stage]);
  return n;
}

/** The screens' boxes relative to the viewport, in page order. */
function screenBoxes(stage: StageRegistry): ScreenBox[] {
  return stage.screens().map((s) => {
    const r = s.element.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
}

/** The viewport's height without a horizontal scrollbar. */
function viewportHeight(): number {
  return document.documentElement.clientHeight || window.innerHeight;
}

/** A blanked screen (a clicker's blank button): black, white, or none. */
type Blank = 'black' | 'white' | null;

/** How long the pointer and keys rest before the presentation bar fades, so it never covers a projected picture. */
const BAR_IDLE_MS = 2500;

function PresentBar({
  stage,
  onMove,
  onExit,
}: {
  stage: StageRegistry;
  onMove: (a: PresentAction) => void;
  onExit: () => void;
}) {
  const total = useScreensCount(stage);
  const [at, setAt] = useState(0);
  // Whether the keys would move from here (a tall screen scrolls within itself before the next one).
  const [can, setCan] = useState({ prev: false, next: false });
  useEffect(() => {
    let frame = 0;
    const read = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const boxes = screenBoxes(stage);
        setAt(currentScreen(boxes.map((b) => b.top)));
        const moves = (a: PresentAction) =>
          presentScrollTarget(boxes, a, viewportHeight(), window.scrollY) !== null;
        const next = { prev: moves('prev'), next: moves('next') };
        setCan((c) => (c.prev === next.prev && c.next === next.next ? c : next));
      });
    };
    read();
    window.addEventListener('scroll', read, { passive: true });
    window.addEventListener('resize', read, { passive: true });
    const off = stage.subscribe(read);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', read);
      window.removeEventListener('resize', read);
      off();
    };
  }, [stage]);
  const label = stage.screens()[at]?.label ?? '';
  const idle = useIdle(BAR_IDLE_MS);
  return (
    <nav
      className="present-bar"
      aria-label="Presentation"
      data-present-bar=""
      data-idle={idle ? '' : undefined}
    >
      <button type="button" onClick={() => onMove('prev')} aria-label="Previous screen" disabled={!can.prev}>
        ‹
      </button>
      <span className="present-position" aria-live="polite" data-present-position={`${at + 1}/${total}`}>
        {total ? `${at + 1} / ${total}` : ''}
        <span className="visually-hidden">: {label}</span>
      </span>
      <button
        type="button"
        onClick={() => onMove('next')}
        aria-label="Next screen"
        disabled={total === 0 || !can.next}
      >
        ›
      </button>
      <button type="button" onClick={onExit} className="present-exit">
        Exit presentation
      </button>
    </nav>
  );
}

/** Provides the stage to the lesson and runs presentation mode when the URL asks for it. */
export function LessonStage({ children }: { children: ReactNode }) {
  const [stage] = useState(createStageRegistry);
  const presenting = isPresenting(useSearch());
  const windowSize = useWindowSize();
  const zoom = presenting ? projectedZoom(windowSize.width, windowSize.height) : 1;
  // Charts draw larger than the type (their text starts smaller, and it is what a lecture hall reads).
  const chartZoom = presenting ? projectedChartZoom(windowSize.width, windowSize.height) : 1;

  useEffect(() => {
    const root = document.documentElement;
    if (presenting) root.dataset.present = '';
    else delete root.dataset.present;
    return () => {
      delete root.dataset.present;
    };
  }, [presenting]);

  // The stylesheet's type scale reads the same zooms: --present-zoom the prose's, --chart-zoom the charts' (for the
  // text of a figure drawn in HTML, a table's, to match the charts' text: charts.css --chart-text).
  useEffect(() => {
    const root = document.documentElement;
    if (presenting) {
      root.style.setProperty('--present-zoom', String(zoom));
      root.style.setProperty('--chart-zoom', String(chartZoom));
    } else {
      root.style.removeProperty('--present-zoom');
      root.style.removeProperty('--chart-zoom');
    }
    return () => {
      root.style.removeProperty('--present-zoom');
      root.style.removeProperty('--chart-zoom');
    };
  }, [presenting, zoom, chartZoom]);

  const [blank, setBlank] = useState<Blank>(null);
  const exit = useCallback(() => {
    setBlank(null);
    replaceSearch((q) => withPresent(q, false));
  }, []);

  const move = useCallback(
    (action: PresentAction) => {
      if (action === 'exit') {
        exit();
        return;
      }
      if (action === 'black' || action === 'white') {
        setBlank(action);
        return;
      }
      const screens = stage.screens();
      const to = presentScrollTarget(screenBoxes(stage), action, viewportHeight(), window.scrollY);
      if (to === null) return;
      window.scrollTo({ top: to.top, behavior: 'instant' });
      const el = screens[to.screen].element;
      if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
      el.focus({ preventScroll: true });
    },
    [stage, exit],
  );

  useEffect(() => {
    if (!presenting) return;
    const onKey = (e: KeyboardEvent) => {
      // A blanked screen comes back on any key, and that key does nothing else (as in PowerPoint).
      if (blank && !['Shift', 'Control', 'Alt', 'Meta'].includes(e.key)) {
        e.preventDefault();
        e.stopPropagation();
        setBlank(null);
        return;
      }
      if (e.defaultPrevented && e.key !== 'PageDown' && e.key !== 'PageUp') return;
      // A modal dialog (the keyboard list) has the keys; Escape first closes what the focused control opened
      // (a glossary term's definition), not the presentation.
      if (document.querySelector('dialog[open]')) return;
      if (e.key === 'Escape' && document.activeElement?.getAttribute('aria-expanded') === 'true') return;
      const action = presentKeyAction(e.key, focusKind(document.activeElement), {
        ctrl: e.ctrlKey,
        alt: e.altKey,
        meta: e.metaKey,
      });
      if (!action) return;
      e.preventDefault();
      e.stopPropagation();
      move(action);
    };
    // Capture phase: a clicker's PageDown must move the screen even when a slider has focus.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [presenting, move, blank]);

  // One tree whether presenting or not, so switching never remounts a widget (or restarts its simulation).
  return (
    <StageContext.Provider value={stage}>
      <ChartZoomContext.Provider value={chartZoom}>
        {children}
        {presenting ? <PresentBar stage={stage} onMove={move} onExit={exit} /> : null}
        {presenting && blank ? (
          <div className="present-blank" data-blank={blank} onClick={() => setBlank(null)} role="status">
            <span className="visually-hidden">Screen blanked: press any key or click to return.</span>
          </div>
        ) : null}
      </ChartZoomContext.Provider>
    </StageContext.Provider>
  );
}

/** The button that starts presentation mode. */
export function PresentButton() {
  return (
    <button
      type="button"
      className="present-button"
      onClick={() => replaceSearch((q) => withPresent(q, true))}
      title="Projector layout: large type, one screen at a time (→ / ← or PageDown / PageUp; B blanks the screen)"
    >
      Present
    </button>
  );
}
