/** Prose building blocks for lessons: recap boxes, callouts, "try this" lists, key points, references. */
import type { ReactNode } from 'react';

export function Recap({ title = 'Recap', children }: { title?: string; children: ReactNode }) {
  return (
    <aside className="box box-recap" aria-label={title}>
      <div className="box-title">{title}</div>
      {children}
    </aside>
  );
}

export function Callout({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <aside className="box box-callout" aria-label={title ?? 'Note'}>
      {title ? <div className="box-title">{title}</div> : null}
      {children}
    </aside>
  );
}

export function Remember({ children }: { children: ReactNode }) {
  return (
    <section className="box box-remember" aria-labelledby="what-to-remember">
      <h2 id="what-to-remember">What to remember</h2>
      {children}
    </section>
  );
}
