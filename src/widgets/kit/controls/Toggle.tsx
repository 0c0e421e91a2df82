import { useId } from 'react';
import type { BooleanParam } from '../../../state/paramSchema';

/** A switch: a checkbox with role="switch", so screen readers announce on/off. */
export function Toggle({
  name,
  spec,
  value,
  onChange,
}: {
  name: string;
  spec: BooleanParam;
  value: boolean;
  onChange(v: boolean): void;
}) {
  const id = useId();
  return (
    <div className="control control-toggle" data-param={name}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={value}
        aria-checked={value}
        title={spec.help}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label htmlFor={id} className="control-label">
        {spec.label}
      </label>
    </div>
  );
}
