/** A lesson: header and objectives from the catalog, the MDX body, a table of contents, progress, prev/next. */
import {
  Suspense,
  lazy,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';
import { LESSONS, lessonBySlug, lessonPath, type LessonMeta } from './lessons';
import { Link } from './Link';
import { useProgress, useServices } from './services';
import { NotFound } from './NotFound';
import { ErrorBoundary } from '../widgets/kit/ErrorBoundary';
import { useStageScreen } from '../widgets/kit/stage';
import { LessonStage, PresentButton } from './presentation/LessonStage';

const modules = import.meta.glob<{ default: ComponentType }>('../../lessons/*.mdx');

/** One lazily loaded component per lesson file, created once (keyed by slug). */
const lessonBodies: Record<string, LazyExoticComponent<ComponentType>> = Object.fromEntries(
  Object.entries(modules).map(([path, loader]) => [path.replace(/^.*\/(.+)\.mdx$/, '$1'), lazy(loader)]),
);

interface TocEntry {
  id: string;
  text: string;
  level: number;
}

function TableOfContents({ entries }: { entries: TocEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <nav className="toc" aria-label="On this page">
      <div className="toc-title">On this page</div>
      <ol>
        {entries.map((e) => (
          <li key={e.id} className={`toc-level-${e.level}`}>
            <a href={`#${e.id}`}>{e.text}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function LessonNav({ lesson }: { lesson: LessonMeta }) {
  const i = LESSONS.indexOf(lesson);
  const prev = LESSONS[i - 1];
  const next = LESSONS[i + 1];
  return (
    <nav className="lesson-nav" aria-label="Lessons">
      {prev ? (
        <Link href={lessonPath(prev.slug)} rel="prev" className="lesson-nav-prev">
          <span className="lesson-nav-dir">← Previous</span>
          <span>
            {prev.number} {prev.title}
          </span>
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link href={lessonPath(next.slug)} rel="next" className="lesson-nav-next">
          <span className="lesson-nav-dir">Next →</span>
          <span>
            {next.number} {next.title}
          </span>
        </Link>
      ) : null}
    </nav>
  );
}

function DoneControl({ slug }: { slug: string }) {
  const { progress } = useServices();
  const status = useProgress((s) => s.record.lessons[slug]?.status);
  const done = status === 'done';
  return (
    <button
      type="button"
      className={`done-button${done ? ' is-done' : ''}`}
      aria-pressed={done}
      onClick={() => progress.getState().setLessonStatus(slug, done ? 'in-progress' : 'done')}
    >
      {done ? '✓ Done (click to undo)' : 'Mark lesson as done'}
    </button>
  );
}

function LessonHeader({ lesson }: { lesson: LessonMeta }) {
  const ref = useStageScreen('title', 'lesson-title', lesson.title);
  return (
    <header className="lesson-header" ref={ref}>
      <p className="eyebrow">
        Lesson {lesson.number} · {lesson.minutes} min <PresentButton />
      </p>
      <h1>{lesson.title}</h1>
      <section className="objectives" aria-labelledby="objectives-title">
        <h2 id="objectives-title" className="objectives-title">
          Learning objectives
        </h2>
        <ul>
          {lesson.objectives.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
      </section>
    </header>
  );
}

export function LessonPage({ slug }: { slug: string }) {
  const lesson = lessonBySlug(slug);
  const Body = lessonBodies[slug] ?? null;
  const { progress, sim } = useServices();
  const articleRef = useRef<HTMLDivElement>(null);
  const [toc, setToc] = useState<TocEntry[]>([]);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => sim.warm(), [sim]);

  useEffect(() => {
    if (lesson) {
      progress.getState().touchLesson(slug);
      document.title = `${lesson.number} ${lesson.title}: Serving Agents Lab`;
    }
  }, [lesson, slug, progress]);

  // The TOC and #deep-links need the lazily loaded body in the DOM: watch the article until it appears.
  useEffect(() => {
    // The page is keyed by slug, so this runs once per lesson with empty state.
    const el = articleRef.current;
    if (!el) return;
    const collect = () => {
      const headings = Array.from(el.querySelectorAll<HTMLElement>('h2[id], h3[id]')).filter(
        (h) => !h.closest('[data-widget], [data-exercise]'),
      );
      if (headings.length === 0) return false;
      setToc(
        headings.map((h) => ({ id: h.id, text: h.textContent ?? '', level: h.tagName === 'H2' ? 2 : 3 })),
      );
      setLoaded(true);
      return true;
    };
    if (collect()) return;
    const obs = new MutationObserver(() => {
      if (collect()) obs.disconnect();
    });
    obs.observe(el, { childList: true, subtree: true });
    return () => obs.disconnect();
  }, [slug]);

  // Once every widget has drawn its first result and the page has been laid out with it (each block's height
  // remembered through contain-intrinsic-size's auto, app.css), blocks out of view skip layout and paint
  // (content-visibility), so a slider's repaint redraws only what is on screen. Earlier, a block skipped while
  // still loading would keep its loading height and the page would jump when it came into view.
  useEffect(() => {
    const el = articleRef.current;
    if (!loaded || !el) return;
    let raf = 0;
    const settleWhenDrawn = () => {
      if (el.querySelector('[data-widget][data-state="loading"]')) return false;
      raf = requestAnimationFrame(() => {
        raf = requestAnimationFrame(() => el.setAttribute('data-settled', ''));
      });
      return true;
    };
    if (settleWhenDrawn()) return () => cancelAnimationFrame(raf);
    const obs = new MutationObserver(() => {
      if (settleWhenDrawn()) obs.disconnect();
    });
    obs.observe(el, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
    return () => {
      obs.disconnect();
      cancelAnimationFrame(raf);
    };
  }, [loaded]);

  useEffect(() => {
    if (!loaded || !window.location.hash) return;
    const target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [loaded]);

  // One element for the body, so the page's own updates (the TOC, the settled flag) do not re-render the lesson.
  const body = useMemo(() => (Body ? <Body /> : null), [Body]);

  if (!lesson || !Body) return <NotFound path={`/lessons/${slug}`} />;

  return (
    <LessonStage>
      <main id="main" className="lesson">
        <div className="lesson-layout">
          <aside className="lesson-aside">
            <TableOfContents entries={toc} />
          </aside>
          <article className="lesson-article">
            <p className="breadcrumb">
              <Link href="/">Serving Agents</Link> <span aria-hidden="true">›</span> Lesson {lesson.number}
            </p>
            <LessonHeader lesson={lesson} />
            <div ref={articleRef} className="prose">
              <ErrorBoundary what="this lesson" resetKey={slug}>
                <Suspense fallback={<p className="loading">Loading the lesson…</p>}>{body}</Suspense>
              </ErrorBoundary>
            </div>
            <footer className="lesson-footer">
              <DoneControl slug={slug} />
              <LessonNav lesson={lesson} />
            </footer>
          </article>
        </div>
      </main>
    </LessonStage>
  );
}
