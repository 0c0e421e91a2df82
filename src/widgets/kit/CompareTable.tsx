/**
 * A comparison table (tables.css, `.compare-table`): a row per setting a widget ran on the same workload, the row of
 * the setting the widget shows marked current, and a single "computing…" cell across a row's figures until its run
 * is in, so a table that fills as the runs stream in keeps its rows and their order from the start. A table whose
 * rows come with one result (a figure in the prose, captioned by its `figcaption`) has no row to show until then:
 * `pending` says so in one cell across the table.
 */
import type { ReactNode } from 'react';

export function CompareTable({
  name,
  caption,
  columns,
  pending,
  children,
}: {
  /** `data-table`, what browser tests find the table by (a figure's table is found by its figure's). */
  name?: string;
  /** None when a `figcaption` around the table captions it. */
  caption?: ReactNode;
  /** Column headings, the row header's first. */
  columns: readonly string[];
  /** While there are no rows yet: what is computing, in a cell across the table (none: an empty body). */
  pending?: ReactNode;
  /** The rows (CompareRow). */
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className="compare-table" data-table={name}>
        {caption === undefined ? null : <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {children}
          {pending === undefined ? null : (
            <tr>
              <td colSpan={columns.length} className="pending" aria-busy="true">
                {pending}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

export function CompareRow({
  current,
  head,
  note,
  span,
  cells,
  ...data
}: {
  /** The row of the setting the widget shows (none for a table in the prose, which shows every row alike). */
  current?: boolean;
  /** The row header: the setting's name. */
  head: ReactNode;
  /** What the setting is, in words: a muted second line of the row header. */
  note?: ReactNode;
  /** How many figure cells follow the header, for the placeholder to span. */
  span: number;
  /** The figure cells, or null while the setting is still computing. */
  cells: ReactNode | null;
} & { [attribute: `data-${string}`]: string }) {
  return (
    <tr {...data} aria-current={current ? 'true' : undefined} className={current ? 'is-current' : undefined}>
      <th scope="row">
        {head}
        {note === undefined ? null : <span className="row-note">{note}</span>}
      </th>
      {cells ?? (
        <td colSpan={span} className="pending" aria-busy="true">
          computing…
        </td>
      )}
    </tr>
  );
}
