/**
 * Predict, then check: a numeric exercise whose answer is computed by the same core as the widgets (passed
 * in as `answer`, computed by the caller through the worker or a catalog formula), never typed in.
 * Attempts are saved with the learner's progress. After two wrong answers, or on request, the worked solution
 * (the answer and the explanation, both from the core) is shown.
 */
import { useId, useState, type ReactNode } from 'react';
import { useProgress, useServices } from '../app/services';
import { formatNumber } from '../lib/format';
import { localeDecimalSeparator, parseNumberEntry } from '../lib/numberEntry';

export interface ExerciseProps {
  id: string;
  question: ReactNode;
  /** The right answer, from the core; null while it is being computed. */
  answer: number | null;
  /** Accepted relative error (0.05 = ±5%). */
  tolerance: number;
  unit?: string;
  hint?: ReactNode;
  explanation: ReactNode;
  /** How to show the answer. */
  format?: (v: number) => string;
}

/** Wrong answers after which the worked solution opens by itself. */
const SOLUTION_AFTER = 2;

export function checkAnswer(given: number, answer: number, tolerance: number): boolean {
  if (!Number.isFinite(given) || !Number.isFinite(answer)) return false;
  if (answer === 0) return Math.abs(given) <= tolerance;
  return Math.abs(given - answer) <= Math.abs(answer) * tolerance;
}

export function Exercise({
  id,
  question,
  answer,
  tolerance,
  unit,
  hint,
  explanation,
  format,
}: ExerciseProps) {
  const inputId = useId();
  const { progress } = useServices();
  const saved = useProgress((s) => s.record.exercises[id]);
  const [draft, setDraft] = useState(saved ? String(saved.answer) : '');
  const [showHint, setShowHint] = useState(false);
  const [feedback, setFeedback] = useState<null | 'correct' | 'wrong' | 'invalid'>(
    saved ? (saved.correct ? 'correct' : 'wrong') : null,
  );
  const show = format ?? ((v: number) => `${formatNumber(v, 4)}${unit ? ' ' + unit : ''}`);

  const [readAs, setReadAs] = useState<number | null>(null);
  const [wrong, setWrong] = useState(0);
  const [solutionAsked, setSolutionAsked] = useState(false);
  const showSolution = feedback !== 'correct' && (solutionAsked || wrong >= SOLUTION_AFTER);

  const submit = () => {
    const entry = parseNumberEntry(draft, localeDecimalSeparator());
    if (!entry) {
      setReadAs(null);
      setFeedback('invalid');
      return;
    }
    const given = entry.value;
    // A comma or point that could be either separator: show how it was read, so nothing is guessed silently.
    setReadAs(entry.interpreted ? given : null);
    if (answer === null) return;
    const ok = checkAnswer(given, answer, tolerance);
    setFeedback(ok ? 'correct' : 'wrong');
    if (!ok) setWrong((w) => w + 1);
    progress.getState().recordExercise(id, given, ok);
  };

  return (
    <section
      className="exercise"
      data-exercise={id}
      data-result={feedback ?? 'none'}
      aria-labelledby={`${inputId}-q`}
    >
      <h3 className="exercise-title">Exercise: predict, then check</h3>
      <div id={`${inputId}-q`} className="exercise-question">
        {question}
      </div>
      <form
        className="exercise-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={inputId}>Your answer{unit ? ` (${unit})` : ''}</label>
        <input
          id={inputId}
          type="text"
          inputMode="decimal"
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          autoComplete="off"
        />
        <button type="submit" disabled={answer === null}>
          {answer === null ? 'Computing…' : 'Check'}
        </button>
        {feedback !== 'correct' && !showSolution ? (
          <button
            type="button"
            className="link-button"
            onClick={() => setSolutionAsked(true)}
            disabled={answer === null}
          >
            Show the solution
          </button>
        ) : null}
        {hint ? (
          <button
            type="button"
            className="link-button"
            onClick={() => setShowHint((h) => !h)}
            aria-expanded={showHint}
          >
            {showHint ? 'Hide hint' : 'Hint'}
          </button>
        ) : null}
      </form>
      {showHint && hint ? <div className="exercise-hint">{hint}</div> : null}
      <div role="status" aria-live="polite" className="exercise-feedback">
        {feedback === 'invalid' ? (
          <p>
            “{draft.trim()}” is not a number. Enter one such as 12.5, 12,5 or 12 500, without a unit
            {unit ? ` (the answer is in ${unit})` : ''}.
          </p>
        ) : null}
        {readAs !== null && feedback !== 'invalid' ? (
          <p className="exercise-read-as" data-read-as={readAs}>
            Read as {readAs.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 12 })}.
          </p>
        ) : null}
        {feedback === 'wrong' && !showSolution ? (
          <p className="is-wrong">
            Not quite (within ±{formatNumber(tolerance * 100)}% counts). Try again, or open the hint.
          </p>
        ) : null}
        {showSolution && answer !== null ? (
          <div className="exercise-solution" data-solution="">
            <p>
              <strong>Worked solution.</strong>{' '}
              {wrong >= SOLUTION_AFTER ? 'Two tries were not it; here is how the core gets there. ' : ''}The
              answer is {show(answer)}.
            </p>
            <div className="exercise-explanation">{explanation}</div>
          </div>
        ) : null}
        {feedback === 'correct' && answer !== null ? (
          <div className="is-correct">
            <p>
              <strong>Correct.</strong> The core computes {show(answer)}.
            </p>
            <div className="exercise-explanation">{explanation}</div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
