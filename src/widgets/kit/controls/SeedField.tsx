import { useId, useState } from 'react';
import { SEED_MAX, type SeedParam } from '../../../state/paramSchema';

/** The run's seed, editable, with a button that draws a new one (UI randomness only, never in the core). */
export function SeedField({
  name,
  spec,
  value,
  onChange,
}: {
  name: string;
  spec: SeedParam;
  value: number;
  onChange(v: number): void;
}) {
  const id = useId();
  const [draftState, setDraftState] = useState<{ from: number; text: string } | null>(null);
  const draft = draftState && draftState.from === value ? draftState.text : String(value);
  const setDraft = (text: string) => setDraftState({ from: value, text });
  const commit = () => {
    const n = Number(draft);
    if (draft.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= SEED_MAX) onChange(n);
    setDraftState(null);
  };
  return (
    <div className="control control-seed" data-param={name}>
      <label htmlFor={id} className="control-label">
        {spec.label}
      </label>
      <div className="seed-row">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === 'Enter' && commit()}
        />
        <button
          type="button"
          onClick={() => onChange(crypto.getRandomValues(new Uint32Array(1))[0] % SEED_MAX)}
        >
          New seed
        </button>
      </div>
    </div>
  );
}
