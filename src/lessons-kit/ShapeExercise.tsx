/**
 * Predict the shape: pick, among a few small curves, the one the core computes. The true curve comes from the
 * core; the others are the same curve's plausible mistakes (a straight line between the same end points, the
 * opposite curvature, no change at all), so a pick tests the shape and not the numbers. After a pick the answer
 * and the explanation are shown; the pick is saved with the learner's progress.
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import { LineChart, type AxisSpec, type XY } from '../widgets/kit/charts';
import { useProgress, useServices } from '../app/services';

export type ShapeKind = 'computed' | 'straight' | 'opposite' | 'flat';

export interface ShapeCandidate {
  kind: ShapeKind;
  points: XY[];
}

/** The curve's end-to-end straight line, at the same x positions. */
function straight(p: readonly XY[]): XY[] {
  const a = p[0];
  const b = p[p.length - 1];
  return p.map((q, i) => ({ x: q.x, y: a.y + ((b.y - a.y) * i) / (p.length - 1) }));
}

/** The opposite curvature through the same end points: the curve reflected through its chord's midpoint. */
function opposite(p: readonly XY[]): XY[] {
  const a = p[0].y;
  const b = p[p.length - 1].y;
  return p.map((q, i) => ({ x: q.x, y: a + b - p[p.length - 1 - i].y }));
}

function flat(p: readonly XY[]): XY[] {
  const m = p.reduce((s, q) => s + q.y, 0) / p.length;
  return p.map((q) => ({ x: q.x, y: m }));
}

/** Root-mean-square difference over the curve's range (0: the same curve). */
function distance(a: readonly XY[], b: readonly XY[]): number {
  const ys = a.map((q) => q.y);
  const range = Math.max(...ys) - Math.min(...ys) || 1;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += ((a[i].y - b[i].y) / range) ** 2;
  return Math.sqrt(s / a.length);
}

/** A small deterministic hash, so the correct curve's place varies by exercise but not between visits. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The computed curve and its distinct mistakes, in an order fixed by `id`. The points must be evenly spaced
 * along the x axis as drawn (log-spaced on a log axis), so that reflecting them reflects the picture.
 */
export function shapeCandidates(id: string, computed: readonly XY[]): ShapeCandidate[] {
  const all: ShapeCandidate[] = [{ kind: 'computed', points: [...computed] }];
  for (const [kind, make] of [
    ['straight', straight],
    ['opposite', opposite],
    ['flat', flat],
  ] as const) {
    const points = make(computed);
    if (all.every((c) => distance(c.points, points) > 0.08)) all.push({ kind, points });
  }
  const shift = hash(id) % all.length;
  return all.map((_, i) => all[(i + shift) % all.length]);
}

export interface ShapeExerciseProps {
  id: string;
  question: ReactNode;
  /** The curve the core computes (evenly spaced in x as drawn); null while it is being computed. */
  computed: XY[] | null;
  x: AxisSpec;
  y: AxisSpec;
  explanation: ReactNode;
}

const LETTERS = ['A', 'B', 'C', 'D'];

export function ShapeExercise({ id, question, computed, x, y, explanation }: ShapeExerciseProps) {
  const qid = useId();
  const { progress } = useServices();
  const saved = useProgress((s) => s.record.exercises[id]);
  const candidates = useMemo(() => (computed ? shapeCandidates(id, computed) : []), [id, computed]);
  const [picked, setPicked] = useState<number | null>(saved ? saved.answer : null);
  const [checked, setChecked] = useState(!!saved);
  const right = candidates.findIndex((c) => c.kind === 'computed');
  const correct = checked && picked === right;
  // Neutral axes on the choices: the question is the shape, and the tick labels would give it away.
  const bare = (a: AxisSpec): AxisSpec => ({ ...a, label: '', unit: undefined, format: () => '' });
  return (
    <section
      className="exercise exercise-shape"
      data-exercise={id}
      data-result={checked ? (correct ? 'correct' : 'wrong') : 'none'}
      aria-labelledby={`${qid}-q`}
    >
      <h3 className="exercise-title">Exercise: predict the shape</h3>
      <div id={`${qid}-q`} className="exercise-question">
        {question}
      </div>
      <div className="shape-choices" role="radiogroup" aria-labelledby={`${qid}-q`}>
        {candidates.map((c, i) => (
          <label
            key={c.kind}
            className={`shape-choice${picked === i ? ' is-picked' : ''}${checked && i === right ? ' is-right' : ''}`}
            data-shape={checked ? c.kind : undefined}
          >
            <input
              type="radio"
              name={qid}
              checked={picked === i}
              onChange={() => {
                setPicked(i);
                setChecked(false);
              }}
            />
            <span className="shape-letter">Curve {LETTERS[i]}</span>
            <LineChart
              title={`Curve ${LETTERS[i]}`}
              width={180}
              height={110}
              x={bare(x)}
              y={bare(y)}
              series={[{ name: `Curve ${LETTERS[i]}`, points: c.points }]}
              points={false}
            />
          </label>
        ))}
      </div>
      <div className="exercise-form">
        <button
          type="button"
          disabled={picked === null || !computed}
          onClick={() => {
            setChecked(true);
            if (picked !== null) progress.getState().recordExercise(id, picked, picked === right);
          }}
        >
          {computed ? 'Check' : 'Computing…'}
        </button>
      </div>
      <div role="status" aria-live="polite" className="exercise-feedback">
        {checked && picked !== null ? (
          <div>
            <p className={correct ? 'is-correct' : 'is-wrong'}>
              <strong>
                {correct ? 'Correct.' : `Not this one: the core computes curve ${LETTERS[right]}.`}
              </strong>
            </p>
            <LineChart
              title="The computed curve"
              height={220}
              x={x}
              y={y}
              series={[{ name: 'Computed', points: candidates[right].points }]}
              points={false}
            />
            <div className="exercise-explanation">{explanation}</div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
