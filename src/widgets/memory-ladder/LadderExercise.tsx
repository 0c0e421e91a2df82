/**
 * 07.04's second exercise: one context back from host DRAM; the answer comes from the ladder's worker method, for
 * the widget's default node, model and tiers with a longer context (LADDER_EXERCISE_SETUP). The question and hint
 * state that setup's figures from the same setup and the catalog entries the worker resolves it to (node, model, the
 * accelerator's host link).
 */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import {
  formatBandwidth,
  formatBytesDecimal,
  formatDuration,
  formatNumber,
  formatRatio,
} from '../../lib/format';
import { resolveAccelerator, resolveLink, resolveModel, resolveNode } from '../../sim/engine/catalog';
import { kvBytesPerToken } from '../../sim/engine/catalog/models';
import { footprintKvCopies } from '../../sim/engine/footprint';
import { shortName } from '../../sim/engine/catalog/names';
import { countWord } from '../../lib/numberWords';
import { LADDER_DEFAULTS, ladderArgs } from './schema';

/**
 * The exercise's setup: the widget's defaults with a context of 128,000 tokens, nearly Llama 3.1's whole window. The
 * page quotes the reload at the default 100,000 tokens (the ladder's bars, the prose above the exercise), so at that
 * length the answer would be on screen before the question; at this one it has to be worked out, then checked by
 * setting the ladder's context.
 */
export const LADDER_EXERCISE_SETUP = ladderArgs({ ...LADDER_DEFAULTS, contextTokens: 128_000 });

/** The figures the question and hint state: the exercise's setup, resolved as the worker resolves it. */
export function ladderExerciseFigures() {
  const setup = LADDER_EXERCISE_SETUP;
  const node = resolveNode(setup.nodeId);
  const model = resolveModel(setup.modelId);
  const hostLink = resolveLink(resolveAccelerator(node.accelerator).hostLink);
  return {
    setup,
    node,
    model,
    hostLink,
    /** KV bytes of one token on the node's GPUs (every copy they hold). */
    bytesPerToken: kvBytesPerToken(model, setup.kvDtype) * footprintKvCopies(model, node.gpuCount),
  };
}

export function LadderQuestion() {
  const { setup, node, model, hostLink } = ladderExerciseFigures();
  return (
    <p>
      An agent&apos;s {formatNumber(setup.contextTokens, 6)}-token {model.name} context (
      {setup.kvDtype.toUpperCase()} KV) waits in the host DRAM of a {shortName(node.name)} during a tool call.
      Each of the {countWord(node.gpuCount)} GPUs reads its share over its own {shortName(hostLink.name)} link
      at the {hostLink.effectiveBasis} {formatBandwidth(hostLink.effectiveBandwidth)}, with a fixed{' '}
      {formatDuration(hostLink.latency)} per transfer. How many milliseconds does the whole context take to
      come back to HBM? Predict first, then check on the ladder above with its context set to match.
    </p>
  );
}

export function LadderHint() {
  const { setup, node, hostLink, bytesPerToken } = ladderExerciseFigures();
  return (
    <p>
      The context is {formatNumber(setup.contextTokens, 6)} tokens × {formatNumber(bytesPerToken, 9)} bytes.
      The {countWord(node.gpuCount)} links work in parallel, so the bandwidth is {formatNumber(node.gpuCount)}{' '}
      × {formatBandwidth(hostLink.effectiveBandwidth)}. Time = latency + bytes / bandwidth.
    </p>
  );
}

export function LadderExercise() {
  const sim = useSimulation('memoryLadder', LADDER_EXERCISE_SETUP);
  const r = sim.result;
  const dram = r?.tiers.find((t) => t.id === 'dram');
  const host = dram?.hops[0];
  return (
    <Exercise
      id="07-04-reload-from-dram"
      question={<LadderQuestion />}
      answer={dram ? dram.reloadS * 1e3 : null}
      tolerance={0.05}
      unit="ms"
      hint={<LadderHint />}
      explanation={
        r && dram && host ? (
          <p>
            {formatBytesDecimal(r.contextBytes)} over {host.count} × {formatBandwidth(host.perLinkBandwidth)}{' '}
            = {formatBandwidth(dram.bandwidth)} takes {formatDuration(dram.reloadS - dram.latency)}, plus{' '}
            {formatDuration(dram.latency)}: {formatNumber(dram.reloadS * 1e3)} ms. Prefilling the same context
            again would take {formatDuration(r.recomputeS)}, {formatRatio(dram.speedupOverRecompute, 2)}{' '}
            longer. Through a single GPU&apos;s link it would take{' '}
            {formatDuration(dram.latency + r.contextBytes / host.perLinkBandwidth)}: striping the KV over
            every GPU&apos;s link is what makes host DRAM fast.
          </p>
        ) : null
      }
    />
  );
}
