/**
 * The glossary: every term the lessons mark at its first use (terms.ts), alphabetical, each with where the course
 * explains it. `/glossary#<id>` opens at the term (a lesson's definition links there).
 */
import { useEffect, useState } from 'react';
import { LESSONS, MODULE_TITLE, lessonPath } from '../lessons';
import { Link } from '../Link';
import { GLOSSARY, type GlossaryTerm } from './terms';
import './glossary.css';

function Explained({ term }: { term: GlossaryTerm }) {
  const lesson = LESSONS.find((l) => l.number === term.explained);
  if (!lesson) return null;
  return (
    <>
      Explained in lesson {lesson.number}, <Link href={lessonPath(lesson.slug)}>{lesson.title}</Link>.
    </>
  );
}

export function GlossaryPage() {
  // The term a lesson's definition linked to (the in-app navigation sets no :target): scrolled to and marked.
  const [target] = useState(() => {
    try {
      return decodeURIComponent(window.location.hash.slice(1));
    } catch {
      return ''; // a malformed address: the list from the top
    }
  });
  useEffect(() => {
    document.title = `Glossary · ${MODULE_TITLE}: Serving Agents Lab`;
    if (target) document.getElementById(target)?.scrollIntoView();
  }, [target]);
  const terms = [...GLOSSARY].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  return (
    <main id="main" className="glossary-page">
      <p className="breadcrumb">
        <Link href="/">{MODULE_TITLE}</Link> <span aria-hidden="true">›</span> Glossary
      </p>
      <h1>Glossary</h1>
      <p className="glossary-lead">
        The terms the lessons use, in the sense they have when serving agents. In a lesson, the first use of
        each is underlined with dots: hover over it, or tap it, for its definition.
      </p>
      <dl className="glossary">
        {terms.map((t) => (
          <div
            key={t.id}
            id={t.id}
            className={`glossary-entry${t.id === target ? ' is-target' : ''}`}
            data-term={t.id}
          >
            <dt>
              {t.name}
              {t.expansion ? <span className="glossary-expansion">{t.expansion}</span> : null}
            </dt>
            <dd>
              <p>{t.definition}</p>
              {t.explained ? (
                <p className="glossary-where">
                  <Explained term={t} />
                </p>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
    </main>
  );
}
