/** 07.08's exercise: the answer comes from the same worker method as the "Asking nicely" widget. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatNumber, formatPercent } from '../../lib/format';

const QUESTION_ARGS = { eps: 0.001, tokens: 120, calls: 1, seed: 1 } as const;

export function SlipExercise() {
  const sim = useSimulation('grammarAskNicely', QUESTION_ARGS);
  const r = sim.result;
  return (
    <Exercise
      id="07-08-valid-tool-call"
      question={
        <p>
          A model asked politely for JSON slips (samples a token that breaks the format) with probability 0.1%
          at each token, independently. What is the probability, in percent, that a 120-token tool call comes
          out valid without a grammar mask? Predict first, then check with the second widget.
        </p>
      }
      answer={r ? r.pValid * 100 : null}
      tolerance={0.005}
      unit="%"
      hint={<p>The call is valid only if all 120 steps avoid a slip: multiply 120 factors of (1 − 0.001).</p>}
      explanation={
        r ? (
          <p>
            p<sub>valid</sub> = 0.999<sup>120</sup> = e<sup>120·ln 0.999</sup> ≈ {formatPercent(r.pValid, 4)}:
            about one call in {formatNumber(1 / (1 - r.pValid), 2)} is malformed. The approximation 1 − Nε =
            88% is close because Nε is small; for long calls it fails, and the exact product keeps falling
            toward zero. With the mask the slip tokens&apos; logits are −∞, and the answer is 100% at any
            length.
          </p>
        ) : null
      }
    />
  );
}
