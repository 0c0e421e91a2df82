import { useId } from 'react';
import type { SelectParam } from '../../../state/paramSchema';

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
  return (
    <div className="control control-select" data-param={name}>
      <label htmlFor={id} className="control-label">
        {spec.label}
      </label>
      <select id={id} value={value} title={spec.help} onChange={(e) => onChange(e.currentTarget.value)}>
        {spec.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
