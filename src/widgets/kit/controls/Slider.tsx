/**
 * An accessible slider: a native range input (role slider, arrows, PageUp/PageDown, Home/End for free) with
 * a number field and unit beside it. Ranges that span decades use a log scale on the track.
 */
import { useId, useState } from 'react';
import type { NumberParam } from '../../../state/paramSchema';
import { clampNumber } from '../../../state/paramSchema';
import { formatWithUnit } from '../../../lib/format';
import { labelAndUnit } from '../unitLabel';

const LOG_STEPS = 1000;

export function toPosition(spec: NumberParam, value: number): number {
  if (spec.scale === 'log') {
    const lo = Math.log(spec.min);
    const hi = Math.log(spec.max);
    return Math.round(((Math.log(Math.max(spec.min, value)) - lo) / (hi - lo)) * LOG_STEPS);
  }
  return value;
}

export function fromPosition(spec: NumberParam, position: number): number {
  if (spec.scale === 'log') {
    const lo = Math.log(spec.min);
    const hi = Math.log(spec.max);
    const raw = Math.exp(lo + (position / LOG_STEPS) * (hi - lo));
    // Snap to 2 significant digits so log sliders land on readable values (1,200 not 1,187.3).
    const snapped = Number(raw.toPrecision(2));
    return clampNumber(spec, snapped);
  }
  return clampNumber(spec, position);
}

/**
 * The value a move of the track to `position` selects. On a log track one position is ~1% of the range while
 * values snap to 2 significant digits (or the step), so an arrow key could land on the value it left and the
 * slider would not move: keep going in the same direction to the next value that differs.
 */
export function valueAtMove(spec: NumberParam, current: number, position: number): number {
  const next = fromPosition(spec, position);
  if (spec.scale !== 'log' || next !== current) return next;
  const from = toPosition(spec, current);
  const dir = Math.sign(position - from);
  if (dir === 0) return next;
  for (let p = position + dir; p >= 0 && p <= LOG_STEPS; p += dir) {
    const v = fromPosition(spec, p);
    if (v !== current) return v;
  }
  return next;
}

export function Slider({
  name,
  spec,
  value,
  onChange,
}: {
  name: string;
  spec: NumberParam;
  value: number;
  onChange(v: number): void;
}) {
  const id = useId();
  // What the learner is typing, tied to the value it started from: a new value from elsewhere discards it.
  const [draft, setDraftState] = useState<{ from: number; text: string } | null>(null);
  const typed = draft && draft.from === value ? draft.text : null;
  const setDraft = (text: string | null) => setDraftState(text === null ? null : { from: value, text });
  const text = spec.format ? spec.format(value) : formatWithUnit(value, spec.unit);
  const [labelText, unitText] = labelAndUnit(spec.label, spec.unit);
  const log = spec.scale === 'log';
  const commit = () => {
    if (typed === null) return;
    const n = Number(typed);
    if (Number.isFinite(n) && typed.trim() !== '') onChange(clampNumber(spec, n));
    setDraft(null);
  };
  return (
    <div className="control control-slider" data-param={name}>
      <label htmlFor={id} className="control-label">
        {labelText}
        {unitText ? <span className="control-unit">{unitText}</span> : null}
      </label>
      <div className="slider-row">
        <input
          id={id}
          type="range"
          min={log ? 0 : spec.min}
          max={log ? LOG_STEPS : spec.max}
          step={log ? 1 : (spec.step ?? (spec.integer ? 1 : (spec.max - spec.min) / 100))}
          value={toPosition(spec, value)}
          aria-valuetext={text}
          title={spec.help}
          onChange={(e) => onChange(valueAtMove(spec, value, Number(e.currentTarget.value)))}
        />
        <input
          type="number"
          className="slider-number"
          aria-label={`${spec.label}${spec.unit ? ` in ${spec.unit}` : ''}`}
          min={spec.min}
          max={spec.max}
          step={spec.integer ? 1 : 'any'}
          value={typed ?? String(value)}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
          }}
        />
      </div>
      <output className="control-value" htmlFor={id}>
        {text}
      </output>
    </div>
  );
}
