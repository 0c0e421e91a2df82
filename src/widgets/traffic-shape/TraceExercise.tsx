/**
 * 07.01's exercises: a four-request Mooncake trace to replay by hand. The answers come from the same worker
 * method that reads a trace from the learner's disk (traceShape).
 */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatNumber, formatTokens } from '../../lib/format';
import { MOONCAKE_BLOCK_SIZE as B } from '../../sim/engine/trace/mooncake';
import { EXERCISE_TRACE } from './exerciseTrace';
import './traffic-shape.css';

const ARGS = { text: EXERCISE_TRACE, name: 'exercise.jsonl' };

export function ExerciseTrace() {
  return (
    <pre className="exercise-trace" aria-label="A four-request trace in the Mooncake format">
      <code>{EXERCISE_TRACE}</code>
    </pre>
  );
}

export function TraceHitRatioExercise() {
  const sim = useSimulation('traceShape', ARGS);
  const s = sim.result?.shape;
  return (
    <Exercise
      id="07-01-ideal-hit-ratio"
      question={
        <>
          <p>
            Four requests of the trace above arrive in the order shown, into a prefix cache that never evicts
            (blocks of {B} tokens, the hash ids as given). What share of all their prompt tokens is found in
            the cache? Predict it in percent before you replay it.
          </p>
        </>
      }
      answer={s ? s.idealHitRatio.tokens * 100 : null}
      tolerance={0.02}
      unit="%"
      format={(v) => `${formatNumber(v, 3)}%`}
      hint={
        <p>
          Walk the requests in order. For each, count its leading hash ids that an earlier request already
          wrote, and stop at the first id not seen; each hit id is {B} tokens. Then add all the requests&apos;
          new ids to the cache. Divide the hit tokens by the sum of
          <code> input_length</code>.
        </p>
      }
      explanation={
        s ? (
          <p>
            Request 1 finds nothing; request 2 finds ids 0–3 ({formatNumber(4 * B)} tokens); request 3 shares
            only id 0, the system prompt ({formatNumber(B)}); request 4 continues request 2 and finds ids 0–4
            ({formatNumber(5 * B)}). That is {formatTokens(s.idealHitRatio.tokens * s.totalInputTokens)} of{' '}
            {formatTokens(s.totalInputTokens)}. Request 3 is a different session: past the shared system
            prompt its prefix differs, so a chained hash never matches again even if later blocks had equal
            text.
          </p>
        ) : null
      }
    />
  );
}

export function TraceIoRatioExercise() {
  const sim = useSimulation('traceShape', ARGS);
  const s = sim.result?.shape;
  return (
    <Exercise
      id="07-01-io-ratio"
      question={<p>What is the input:output ratio ρ = Σ input / Σ output of the same four requests?</p>}
      answer={s ? s.ioRatio : null}
      tolerance={0.02}
      unit="×"
      format={(v) => `${formatNumber(v, 4)}×`}
      hint={<p>Add the four input_length values, add the four output_length values, divide.</p>}
      explanation={
        s ? (
          <p>
            ρ = {formatTokens(s.totalInputTokens)} / {formatTokens(s.totalOutputTokens)} ={' '}
            {formatNumber(s.ioRatio, 4)}. Note it is the ratio of the sums, not the mean of the four
            per-request ratios (
            {formatNumber(s.samples.ratio.reduce((a, b) => a + b, 0) / s.samples.ratio.length, 4)}): long
            prompts weigh more, as they do on the GPU.
          </p>
        ) : null
      }
    />
  );
}
