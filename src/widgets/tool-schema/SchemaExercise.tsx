/** 07.07's exercise: the answer comes from the same worker method as the layout widget, for EXERCISE_LAYOUT. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatNumber, formatTokens } from '../../lib/format';
import { LAYOUT_DEFAULTS, layoutArgs } from './schema';

/**
 * The exercise's session: the layout widget's defaults over a longer session. At the defaults the prose's layout list
 * and the widget's read-out (its first Try this item) print the timestamp layout's total, so the exercise asks for a
 * session length the page does not show.
 */
export const EXERCISE_LAYOUT = { ...LAYOUT_DEFAULTS, turns: 30 };
export const EXERCISE_ARGS = layoutArgs(EXERCISE_LAYOUT);

/** The question, with the tool block's size as the worker counted it (null while it runs). */
export function TimestampQuestion({ toolTokens }: { toolTokens: number | null }) {
  const d = EXERCISE_LAYOUT;
  return (
    <p>
      An agent&apos;s prompt opens with a {d.timestampTokens}-token line holding the current time, then its
      tool block of {toolTokens !== null ? formatNumber(toolTokens, 6) : '…'} tokens, then a{' '}
      {formatNumber(d.systemTokens, 6)}-token system prompt and the history. Each turn adds{' '}
      {formatNumber(d.newTokens, 6)} new tokens and {d.outputTokens} of output. The replica has a prefix cache
      that never evicts. How many tokens does it prefill over a {d.turns}-turn session? Predict first, then
      check with the second widget (pick the layout with the timestamp above the tools, and set the turns in
      the session to {formatNumber(d.turns)}).
    </p>
  );
}

export function TimestampExercise() {
  const sim = useSimulation('toolLayouts', EXERCISE_ARGS);
  const r = sim.result;
  const top = r?.layouts.find((l) => l.layout === 'timestamp-top');
  const first = r?.layouts.find((l) => l.layout === 'tools-first');
  const d = EXERCISE_LAYOUT;
  const head = r ? d.timestampTokens + r.toolTokens + d.systemTokens + d.newTokens : null;
  return (
    <Exercise
      id="07-07-timestamp-above-tools"
      question={<TimestampQuestion toolTokens={r ? r.toolTokens : null} />}
      answer={top ? top.prefillTokens : null}
      tolerance={0.02}
      unit="tokens"
      format={(v) => `${formatNumber(Math.round(v), 6)} tokens`}
      hint={
        <p>
          The timestamp changes every turn and sits in the first KV blocks; every later block&apos;s hash
          chains from them. So nothing hits, and turn t prefills its whole prompt: timestamp + tools + system
          + (t − 1) × (new + output) + new. Sum over t = 1 … {d.turns}.
        </p>
      }
      explanation={
        top && first && head !== null ? (
          <p>
            Turn t prefills {formatNumber(head, 6)} + {formatNumber(d.newTokens + d.outputTokens, 6)} × (t −
            1) tokens, and Σ (t − 1) over {d.turns} turns is {formatNumber((d.turns * (d.turns - 1)) / 2)}:{' '}
            {d.turns} × {formatNumber(head, 6)} + {formatNumber(d.newTokens + d.outputTokens, 6)} ×{' '}
            {formatNumber((d.turns * (d.turns - 1)) / 2)} = {formatNumber(top.prefillTokens, 6)} tokens. With
            the tools first and no timestamp in front (put it in the new message at the end, where its few
            tokens a turn barely count), the same session prefills {formatNumber(first.prefillTokens, 6)}{' '}
            tokens ({formatTokens(first.turns[0].prefillTokens)} on the cold first turn, then about one
            turn&apos;s new tokens each): {formatNumber(top.prefillTokens / first.prefillTokens)} times less,
            for the same conversation. The tool block alone was prefilled {d.turns} times instead of once.
          </p>
        ) : null
      }
    />
  );
}
