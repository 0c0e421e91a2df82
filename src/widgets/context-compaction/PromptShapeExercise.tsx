/** 07.11's predict-the-shape exercise: each turn's prompt when the agent summarises at the threshold. */
import { ShapeExercise } from '../../lessons-kit/ShapeExercise';
import { formatTokens } from '../../lib/format';
import { useSimulation } from '../kit/useSimulation';
import { PAYBACK_DEFAULT_ARGS } from './schema';

export function PromptShapeExercise() {
  const sim = useSimulation('compactionPayback', PAYBACK_DEFAULT_ARGS);
  const turns = sim.result?.runs.summarise.turns;
  const computed = turns ? turns.map((t) => ({ x: t.turn, y: t.promptTokens })) : null;
  return (
    <ShapeExercise
      id="07-11-prompt-shape"
      question={
        <p>
          Take the payback widget&apos;s session at its defaults, with the agent summarising its history
          whenever the context reaches the threshold. Which curve is each turn&apos;s prompt length over the
          session?
        </p>
      }
      computed={computed}
      x={{ label: 'Turn' }}
      y={{ label: 'Prompt', unit: 'tokens', format: (v) => formatTokens(v) }}
      explanation={
        <p>
          Every turn adds its output and tool result, so the prompt grows in a straight line until it reaches
          the threshold; the summary then replaces the history and the prompt falls back to the head plus the
          summary, and the climb starts again: a saw tooth. The fall is a turn whose prompt is mostly new to
          the cache, which is what the payback widget charges for.
        </p>
      }
    />
  );
}
