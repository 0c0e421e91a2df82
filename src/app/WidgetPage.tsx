/**
 * One widget alone at /widget/<id>?…: for an iframe or a slide. The same widget, stage and URL parameters as in
 * its lesson (instructor links' hidden and locked controls included), without the site around it.
 */
import { Suspense, lazy, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { WIDGETS, widgetById } from '../widgets/registry';
import { lessonBySlug, lessonPath } from './lessons';
import { Link } from './Link';
import { NotFound } from './NotFound';
import { LessonStage } from './presentation/LessonStage';
import { ErrorBoundary } from '../widgets/kit/ErrorBoundary';

/** One lazily loaded component per widget, created once. */
const lazyWidgets: Record<string, LazyExoticComponent<ComponentType>> = Object.fromEntries(
  WIDGETS.map((w) => [w.id, lazy(() => w.load().then((c) => ({ default: c })))]),
);

export function WidgetPage({ id }: { id: string }) {
  const entry = widgetById(id);
  const Widget = entry ? lazyWidgets[entry.id] : null;
  const lesson = entry ? lessonBySlug(entry.lesson) : undefined;

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.standalone = '';
    return () => {
      delete root.dataset.standalone;
    };
  }, []);
  useEffect(() => {
    if (lesson) document.title = `${id}: lesson ${lesson.number}, Serving Agents Lab`;
  }, [id, lesson]);

  if (!entry || !Widget) return <NotFound path={`/widget/${id}`} />;
  return (
    <LessonStage>
      <main id="main" className="standalone">
        <ErrorBoundary what="this widget" resetKey={id}>
          <Suspense fallback={<p className="loading">Loading the widget…</p>}>
            <Widget />
          </Suspense>
        </ErrorBoundary>
        {lesson ? (
          <p className="standalone-source">
            From lesson {lesson.number}, <Link href={`${lessonPath(lesson.slug)}#${id}`}>{lesson.title}</Link>{' '}
            · Serving Agents Lab
          </p>
        ) : null}
      </main>
    </LessonStage>
  );
}
