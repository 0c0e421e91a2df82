/**
 * The picture of a setting the core cannot compute (src/sim/engine/cannotRun.ts): where the chart would be, the
 * reason in the reader's words and a button per change that would run. The controls stay live; read-outs show "—"
 * (ReadoutsBlank) rather than the numbers of an older setting. One component for every widget (WidgetFrame draws it).
 */
import { createContext, useContext } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { CannotRun, CannotRunFix } from '../../sim/engine/cannotRun';
import { coerceValue, type ParamSchema } from '../../state/paramSchema';
import type { WidgetParamsState } from '../../state/widgetParams';

/** True inside the read-outs of a widget whose setting cannot run: each Readout shows "—". */
export const ReadoutsBlank = createContext(false);

export function useReadoutsBlank(): boolean {
  return useContext(ReadoutsBlank);
}

/** Where a fix lands: the widget's parameters, and which parameter each request field is (default: the same name). */
export interface FixTarget {
  schema: ParamSchema;
  store: StoreApi<WidgetParamsState<ParamSchema>>;
  fields?: Record<string, string>;
}

/** A fix as parameter settings, or null when a control does not offer its value (or a link locked the control). */
export function fixSettings(
  fix: CannotRunFix,
  target: FixTarget,
): Record<string, string | number | boolean> | null {
  const out: Record<string, string | number | boolean> = {};
  const locked = target.store.getState().locked;
  for (const [field, value] of Object.entries(fix.set)) {
    const key = target.fields?.[field] ?? field;
    const spec = target.schema[key];
    if (!spec || locked.includes(key) || !coerceValue(spec, value).valid) return null;
    out[key] = value;
  }
  return out;
}

export function CannotRunPicture({ outcome, target }: { outcome: CannotRun; target?: FixTarget }) {
  const fixes = target
    ? outcome.fixes.flatMap((f) => {
        const settings = fixSettings(f, target);
        return settings ? [{ label: f.label, settings }] : [];
      })
    : [];
  return (
    <div className="widget-cannot-run" role="status" data-cannot-run="">
      <p className="widget-cannot-run-title">
        <strong>This setting cannot run.</strong>
      </p>
      <p className="widget-cannot-run-reason">{outcome.reason}</p>
      {fixes.length ? (
        <p className="widget-cannot-run-fixes">
          {fixes.map((f) => (
            <button
              key={f.label}
              type="button"
              data-fix=""
              onClick={() => {
                const st = target!.store.getState();
                for (const [k, v] of Object.entries(f.settings)) st.set(k, v);
              }}
            >
              {f.label}
            </button>
          ))}
        </p>
      ) : null}
    </div>
  );
}
