import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { SelectParam } from '../../../state/paramSchema';

/** Room a select gives its text besides the text itself: its padding and the arrow. */
const SELECT_CHROME_PX = 28;

/**
 * True when the select is too narrow to show its chosen option whole, as a native select cuts it without a mark
 * ("Tool choice, 1–128 to" in a 270-pixel column at projector type). Measured with the select's own font, again
 * when the choice or the select's width changes.
 */
function useCutOff(select: React.RefObject<HTMLSelectElement | null>, text: string): boolean {
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = select.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return;
    const measure = () => {
      const style = getComputedStyle(el);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      setCut(context.measureText(text).width + SELECT_CHROME_PX > el.clientWidth);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [select, text]);
  return cut;
}

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
  const ref = useRef<HTMLSelectElement>(null);
  const chosen = spec.options.find((o) => o.value === value)?.label ?? '';
  const cut = useCutOff(ref, chosen);
  return (
    <div className="control control-select" data-param={name}>
      <label htmlFor={id} className="control-label">
        {spec.label}
      </label>
      <select
        ref={ref}
        id={id}
        value={value}
        title={spec.help}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {spec.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {/* The choice whole, under a select too narrow to show it (a slider shows its value the same way). Hidden
          from assistive technology, which reads the select's own value; an <output> would announce it again. */}
      {cut ? (
        <span className="control-value" aria-hidden="true" data-select-whole>
          {chosen}
        </span>
      ) : null}
    </div>
  );
}
