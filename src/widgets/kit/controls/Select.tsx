import { useId } from 'react';
import type { SelectParam } from '../../../state/paramSchema';
import './controls.css';

/**
 * A choice from a list. A native select cuts a choice longer than its box without a mark ("Evict (a late resume
 * recomputes" in a 270-pixel column at 1280 px), so the box shows the choice itself, whole, on two lines where it
 * needs them, and the native select lies over it, transparent: it keeps the clicks, the keys, the list it opens,
 * the focus and what assistive technology reads. The box never gets wider than its column (a phone's included).
 */
export function Select({
  name,
  spec,
  value,
  onChange,
}: {
  name: string;
  spec: SelectParam;
  value: string;
  onChange(v: string): void;
}) {
  const id = useId();
  const chosen = spec.options.find((o) => o.value === value)?.label ?? '';
  return (
    <div className="control control-select" data-param={name}>
      <label htmlFor={id} className="control-label">
        {spec.label}
      </label>
      <div className="select-box">
        <select id={id} value={value} title={spec.help} onChange={(e) => onChange(e.currentTarget.value)}>
          {spec.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {/* What the box shows; hidden from assistive technology, which reads the select's own value. */}
        <span className="select-face" aria-hidden="true" data-select-face>
          {chosen}
        </span>
      </div>
    </div>
  );
}
