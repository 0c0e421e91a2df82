import { useEffect } from 'react';
import { LESSONS, MODULE_THESIS, MODULE_TITLE, lessonPath } from './lessons';
import { Link } from './Link';
import { useProgress } from './services';

export function Home() {
  const lessons = useProgress((s) => s.record.lessons);
  const done = LESSONS.filter((l) => lessons[l.slug]?.status === 'done').length;
  useEffect(() => {
    document.title = `${MODULE_TITLE}: Serving Agents Lab`;
  }, []);
  return (
    <main id="main" className="home">
      <header className="home-hero">
        <p className="eyebrow">Module 7 · Serving Agents Lab</p>
        <h1>{MODULE_TITLE}</h1>
        <p className="thesis">{MODULE_THESIS}</p>
        <p className="home-progress" aria-live="polite">
          {done} of {LESSONS.length} lessons done
        </p>
      </header>
      <ol className="lesson-cards">
        {LESSONS.map((l) => {
          const status = lessons[l.slug]?.status;
          return (
            <li key={l.slug} className={`lesson-card${status ? ` is-${status}` : ''}`} data-lesson={l.slug}>
              <Link href={lessonPath(l.slug)} className="lesson-card-link">
                <span className="lesson-card-number">{l.number}</span>
                <span className="lesson-card-title">{l.title}</span>
                <span className="lesson-card-objective">{l.objective}</span>
                <span className="lesson-card-meta">
                  <span>{l.minutes} min</span>
                  {status === 'done' ? (
                    <span className="badge badge-done">✓ Done</span>
                  ) : status === 'in-progress' ? (
                    <span className="badge badge-progress">◐ In progress</span>
                  ) : null}
                </span>
              </Link>
            </li>
          );
        })}
      </ol>
    </main>
  );
}
