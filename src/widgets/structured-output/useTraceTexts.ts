/**
 * Which schema and document the mask stepper (MaskStepper.tsx) traces: a preset's, or the texts the learner
 * compiled from the editors. The editors hold a draft; Compile refuses texts over the limits (said under the
 * editor they are about, the draft kept), and Cancel goes back to what was traced before.
 */
import { useState } from 'react';
import type { WidgetParams } from '../kit/useWidgetParams';
import { findPreset, SCHEMA_PRESETS } from '../../sim/lessons/grammar/presets';
import { documentLimitMessage, schemaLimitMessage } from '../../sim/lessons/grammar/limits';
import { maskStepperSchema } from './schema';

export interface Texts {
  schema: string;
  document: string;
}

export type Field = 'schema' | 'document';

export interface FieldProblem {
  field: Field;
  message: string;
}

export function presetTexts(id: string): Texts {
  const p = findPreset(id) ?? SCHEMA_PRESETS[0];
  return { schema: JSON.stringify(p.schema, null, 2), document: JSON.stringify(p.document, null, 2) };
}

/** The texts over the limits (grammar/limits.ts), each said under the editor it is about; empty when within. */
export function inputProblems(t: Texts): FieldProblem[] {
  const out: FieldProblem[] = [];
  const schema = schemaLimitMessage(t.schema);
  if (schema) out.push({ field: 'schema', message: schema });
  const document = documentLimitMessage(t.document);
  if (document) out.push({ field: 'document', message: document });
  return out;
}

/** What Cancel goes back to: the preset and texts applied before the trace that is running. */
interface Applied {
  preset: string;
  custom: Texts | null;
}

export function useTraceTexts(params: WidgetParams<typeof maskStepperSchema>) {
  const preset = params.values.preset;
  const [draft, setDraft] = useState<Texts>(() => presetTexts(preset));
  const [custom, setCustom] = useState<Texts | null>(null);
  // Refused before sending (over a limit); the draft stays in the editors.
  const [refused, setRefused] = useState<FieldProblem[]>([]);
  const [cancelTo, setCancelTo] = useState<Applied | null>(null);
  const [shownPreset, setShownPreset] = useState(preset);
  if (shownPreset !== preset) {
    // A preset was picked: its texts replace the editor's (adjusting state during render, React's documented pattern).
    setShownPreset(preset);
    if (preset !== 'custom') {
      setDraft(presetTexts(preset));
      setCustom(null);
      setRefused([]);
    }
  }
  const applied =
    preset === 'custom' && custom ? custom : presetTexts(preset === 'custom' ? SCHEMA_PRESETS[0].id : preset);

  /** Trace the draft, unless it is over a limit; whether it was taken. */
  const apply = (): boolean => {
    const problems = inputProblems(draft);
    setRefused(problems);
    if (problems.length > 0) return false;
    setCancelTo({ preset, custom });
    setCustom(draft);
    if (preset !== 'custom') {
      setShownPreset('custom');
      params.set('preset', 'custom');
    }
    return true;
  };

  /**
   * Go back to what was traced before the running trace; whether there was one. The editors keep what was typed:
   * the preset is restored together with the preset shown, so it does not reload them.
   */
  const cancel = (): boolean => {
    if (!cancelTo) return false;
    setCustom(cancelTo.custom);
    if (cancelTo.preset !== preset) {
      setShownPreset(cancelTo.preset);
      params.set('preset', cancelTo.preset);
    }
    setCancelTo(null);
    return true;
  };

  /** The parameters' defaults, and the default preset's texts in the editors. */
  const reset = () => {
    params.reset();
    setDraft(presetTexts(maskStepperSchema.preset.default));
    setCustom(null);
    setRefused([]);
    setCancelTo(null);
  };

  return { draft, setDraft, applied, refused, cancellable: cancelTo !== null, apply, cancel, reset };
}
