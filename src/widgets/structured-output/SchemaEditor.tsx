/**
 * The mask stepper's editors (MaskStepper.tsx): the tool's JSON Schema and the document the model writes, each
 * with the reason it was refused under it (over a limit before sending, or the worker's message), and Compile;
 * while a compiled trace runs, its progress and Cancel.
 */
import { JobProgressLine } from '../kit/JobProgress';
import type { JobProgress } from '../../worker/progress';
import type { Field, FieldProblem, Texts } from './useTraceTexts';

/** Shown from Compile until the worker's first frame arrives (the worker's own first frame says the same). */
const COMPILING: JobProgress = {
  label: 'Compiling the schema',
  unit: 'steps',
  done: 0,
  total: 0,
  stage: 1,
  stages: 2,
};

export function SchemaEditor({
  draft,
  onDraft,
  refused,
  failed,
  onApply,
  running,
}: {
  draft: Texts;
  onDraft: (t: Texts) => void;
  /** Over a limit, found before sending: these replace the worker's message. */
  refused: readonly FieldProblem[];
  /** The worker's refusal of the texts traced, if it refused them. */
  failed: FieldProblem | null;
  onApply: () => void;
  /** The compiled trace while it runs (its progress so far, if any), for Cancel; null when none runs. */
  running: { progress: JobProgress | null; onCancel: () => void } | null;
}) {
  const schemaError = failed?.field === 'schema' ? failed.message : null;
  const documentError = failed?.field === 'document' ? failed.message : null;
  const fieldMessage = (field: Field, fromWorker: string | null) => {
    const message =
      refused.length > 0 ? (refused.find((r) => r.field === field)?.message ?? null) : fromWorker;
    return message ? (
      <div className="so-error" role="alert" data-readout={`${field}-error`}>
        {message}
      </div>
    ) : null;
  };
  return (
    <div className="so-editor">
      <div>
        <label htmlFor="so-schema">JSON Schema of the tool&apos;s arguments</label>
        <textarea
          id="so-schema"
          spellCheck={false}
          value={draft.schema}
          onChange={(e) => onDraft({ ...draft, schema: e.currentTarget.value })}
        />
        {fieldMessage(
          'schema',
          schemaError && !/again\.$/.test(schemaError)
            ? `${schemaError} Fix the schema and compile again, or pick a preset.`
            : schemaError,
        )}
      </div>
      <div>
        <label htmlFor="so-document">Document the model writes (sent compact)</label>
        <textarea
          id="so-document"
          spellCheck={false}
          value={draft.document}
          onChange={(e) => onDraft({ ...draft, document: e.currentTarget.value })}
        />
        {fieldMessage('document', documentError)}
      </div>
      <div className="so-editor-actions">
        <button type="button" onClick={onApply}>
          Compile and trace
        </button>
        {running ? (
          <JobProgressLine progress={running.progress ?? COMPILING} onCancel={running.onCancel} />
        ) : (
          <span className="so-note">
            Edits take effect when you compile. A document the schema forbids stops at the first masked token.
          </span>
        )}
      </div>
    </div>
  );
}
