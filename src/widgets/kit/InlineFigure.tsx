/**
 * A figure in a lesson's prose, computed by the core: "…" (marked busy) until its value arrives, then the value,
 * with how it was computed as its title; "[not computed]" if the computation failed, so a fault never leaves the
 * reader waiting on a "…". Every lesson's inline figures are drawn by this one component.
 */
export function InlineFigure({
  value,
  title,
  failed = false,
}: {
  value: string | null;
  title?: string;
  /** The computation behind a missing value failed: say so instead of "…". */
  failed?: boolean;
}) {
  if (value === null)
    return failed ? (
      <span className="figure figure-pending">[not computed]</span>
    ) : (
      <span className="figure figure-pending" aria-busy="true">
        …
      </span>
    );
  return (
    <span className="figure" title={title}>
      {value}
    </span>
  );
}
