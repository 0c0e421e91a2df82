/** 07.08's exercise: the answer comes from the same worker method as the "Asking nicely" widget. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatNumber, formatPercent } from '../../lib/format';

/** A setting the prose does not quote (its examples are ε = 0.1% and 0.01% at 120 and 1,000 tokens). */
export const QUESTION_ARGS = { eps: 0.0005, tokens: 400, calls: 1, seed: 1 } as const;

export function SlipExercise() {
  const sim = useSimulation('grammarAskNicely', QUESTION_ARGS);
  const r = sim.result;
  const { eps, tokens } = QUESTION_ARGS;
  return (
    <Exercise
      id="07-08-valid-tool-call"
      question={
        <p>
          A model asked politely for JSON slips (samples a token that breaks the format) with probability{' '}
          {formatPercent(eps, 2)} at each token, independently. What is the probability, in percent, that a{' '}
          {formatNumber(tokens)}-token tool call (a file edit, say) comes out valid without a grammar mask?
          Predict first, then check with the first widget, &quot;Asking nicely&quot;.
        </p>
      }
      answer={r ? r.pValid * 100 : null}
      tolerance={0.005}
      unit="%"
      hint={
        <p>
          The call is valid only if all {formatNumber(tokens)} steps avoid a slip: multiply{' '}
          {formatNumber(tokens)} factors of (1 − {formatNumber(eps, 2)}).
        </p>
      }
      explanation={
        r ? (
          <p>
            p<sub>valid</sub> = {formatNumber(1 - eps, 4)}
            <sup>{formatNumber(tokens)}</sup> = e<sup>N·ln(1 − ε)</sup> ≈ e<sup>−Nε</sup> ≈{' '}
            {formatPercent(r.pValid, 4)}: about one call in {formatNumber(1 / (1 - r.pValid), 2)} is
            malformed. The shortcut 1 − Nε = {formatPercent(1 - tokens * eps, 2)} is off by{' '}
            {formatNumber((r.pValid - (1 - tokens * eps)) * 100, 2)} points: it is only the first term of the
            exponential, and as N grows it falls below zero while the exact product keeps falling toward zero.
            With the mask the slip tokens&apos; logits are −∞, and the answer is 100% at any length.
          </p>
        ) : null
      }
    />
  );
}
