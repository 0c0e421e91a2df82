/**
 * "Edit the prompt, watch the cache" (lesson 07.11): an agent's prompt drawn as its segments (system, tools,
 * task, the turns, the latest tool result), before and after an edit; under each, which tokens the prefix cache
 * still serves and which must be prefilled again. The cache lookup walks the edited prompt's chained block hashes
 * (src/sim/engine/kvcache/hash.ts) in the worker (method compactionEdit); the re-prefill is priced by src/sim/engine/cost.ts.
 */
import { useMemo } from 'react';
import { ParamControls } from '../kit/controls/ParamControls';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import {
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatRatio,
  formatTokens,
  formatWhole,
} from '../../lib/format';
import type { EditResult } from '../../worker/compactionMethods';
import { EDIT_CONTROLS, EDIT_ID, editArgs, editSchema, HEAD } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';
import { PromptPicture } from './PromptPicture';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-11 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Lower <em>Edit at turn</em> from {editSchema.editTurn.default} to 2: the summary is the same size, yet
        the hatched re-prefill grows by every turn that now sits after it.
      </>
    ),
    set: { editTurn: 2 },
    highlight: 'reprefill-tokens',
  },
  {
    text: <>Raise it to 28: only the summary and the turns after it miss.</>,
    set: { editTurn: 28 },
    highlight: 'reprefill-tokens',
  },
  {
    text: (
      <>
        Pick <em>Change one token</em> at position 10 (a timestamp in the system prompt): one token costs a
        full prefill of the whole prompt.
      </>
    ),
    set: { edit: 'token', tokenPosition: 10 },
    highlight: 'hit-tokens',
  },
  {
    text: <>Move it to 79,000: almost everything hits.</>,
    set: { edit: 'token', tokenPosition: 79_000 },
    highlight: 'hit-tokens',
  },
  {
    text: (
      <>
        Pick <em>Prune old tool results</em> from turn 0: the context shrinks more than with the summary, but
        the edit point is turn 0&apos;s tool result, right after the task and turn 0&apos;s output, so
        everything after it, most of what is left, is prefilled again.
      </>
    ),
    set: { edit: 'prune', editTurn: 0 },
    highlight: 'reprefill-tokens',
  },
  {
    text: (
      <>
        <em>Insert a retrieved document</em> before turn 39 instead of turn 5 and compare.
      </>
    ),
    set: { edit: 'retrieve', editTurn: 39 },
    highlight: 'reprefill-tokens',
  },
];
import './context-compaction.css';

export function editSentence(r: EditResult): string {
  const a = r.applied;
  switch (a.kind) {
    case 'summarise':
      return `Turns ${a.fromTurn}–${a.fromTurn + a.span - 1} replaced by a ${formatCount(a.summaryTokens)}-token summary.`;
    case 'prune':
      return `Tool results of turns ${a.fromTurn} to ${r.before.filter((s) => s.kind === 'result').length - a.keepLast - 1} replaced by ${formatCount(a.stubTokens)}-token stubs.`;
    case 'retrieve':
      return `A ${formatCount(a.docTokens)}-token document inserted before turn ${a.atTurn}.`;
    case 'token':
      return `One token changed at position ${formatWhole(a.position)}.`;
    default:
      return 'Nothing edited: the next prompt extends the cached one.';
  }
}

export function EditCache() {
  const params = useWidgetParams(EDIT_ID, editSchema);
  const v = params.values;
  const args = useMemo(() => editArgs(v), [v]);
  const sim = useSimulation('compactionEdit', args);
  const r = sim.result;
  const keys = useMemo(
    () =>
      (Object.keys(editSchema) as (keyof typeof editSchema)[]).filter((k) => {
        const specific = [
          'editTurn',
          'span',
          'summaryTokens',
          'keepLast',
          'stubTokens',
          'docTokens',
          'tokenPosition',
        ];
        return !specific.includes(k) || (EDIT_CONTROLS[v.edit] ?? []).includes(k);
      }),
    [v.edit],
  );
  const ri = r?.replica;
  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={EDIT_ID}
      title="Edit the prompt, watch the cache"
      fixFields={{ modelId: 'model' }}
      controls={<ParamControls params={params} only={keys} />}
      exportData={() => ({
        rows: r
          ? [
              ...r.before.map((s) => ({
                prompt: 'before',
                kind: s.kind,
                turn: s.turn,
                start: s.start,
                tokens: s.tokens,
              })),
              ...r.after.map((s) => ({
                prompt: 'after',
                kind: s.kind,
                turn: s.turn,
                start: s.start,
                tokens: s.tokens,
              })),
            ]
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && ri ? (
          <>
            <Readout
              label="Edit point"
              value={
                <span data-readout="edit-point" data-value={r.editPoint}>
                  {r.applied.kind === 'none' || r.editPoint >= r.tokensBefore
                    ? 'none'
                    : `token ${formatWhole(r.editPoint)}`}
                </span>
              }
              formula={editSentence(r)}
            />
            <Readout
              emphasis
              label="Tokens still cached"
              value={
                <span data-readout="hit-tokens" data-value={r.hitTokens}>
                  {formatTokens(r.hitTokens)}
                </span>
              }
              formula={`min(⌊edit point / block⌋, blocks cached) × block = ${formatNumber(r.blocksHit, 6)} blocks × ${r.blockSize}: the walk along the chained hashes stops at the first block that differs, or where the cache ends`}
            />
            <Readout
              emphasis
              label="Tokens to re-prefill"
              value={
                <span data-readout="reprefill-tokens" data-value={r.reprefillTokens}>
                  {formatTokens(r.reprefillTokens)}
                </span>
              }
              formula={`prompt − hit = ${formatWhole(r.tokensAfter)} − ${formatWhole(r.hitTokens)}; without the edit ${formatWhole(r.baselineReprefillTokens)} (the latest result)${r.movedTokens > 0 && r.applied.kind !== 'none' ? `; ${formatTokens(r.movedTokens)} of it unchanged content that only moved` : ''}`}
            />
            <Readout
              label="Re-prefill time"
              value={
                <span data-readout="reprefill-time" data-value={r.reprefillSeconds}>
                  {formatDuration(r.reprefillSeconds)}
                </span>
              }
              formula={`the cost model's prefill of n = ${formatCount(r.reprefillTokens)} tokens on c = ${formatCount(r.hitTokens)} cached: matmuls 2N·n / G_m + attention A·(n·c + n²/2) / G_a + all-reduces + the iteration's overhead (${formatFlops(r.reprefillFlops)} in all, G_m = ${formatFlops(ri.effectiveFlops, true)}; ${r.reprefillBound}-bound); without the edit ${formatDuration(r.baselineSeconds)}; the edit makes it ${formatRatio(r.reprefillSeconds / r.baselineSeconds, 3)} as long`}
            />
            <Readout
              label="Dead KV left behind"
              value={
                <span data-readout="dead-tokens" data-value={r.deadTokens}>
                  {formatTokens(r.deadTokens)} = {formatBytesDecimal(r.deadBytes)}
                </span>
              }
              formula={`cached − hit = ${formatWhole(r.cachedBefore)} − ${formatWhole(r.hitTokens)}, × ${formatBytesDecimal(ri.kvBytesPerToken)} per token: held until evicted, used by no one`}
            />
          </>
        ) : null
      }
      caption={
        r && ri ? (
          <>
            A session of {formatTokens(r.tokensBefore)}: system prompt, tool schemas and task (
            {formatTokens(HEAD.systemTokens + HEAD.toolTokens + HEAD.taskTokens)}), then {v.turns} turns of
            model output and tool result. The cache holds every full {r.blockSize}
            -token block before the latest tool result, which has just arrived. Each block&apos;s hash chains
            its parent&apos;s, so the lookup stops at the first block that differs and nothing after it can
            hit, even content that did not change. {ri.modelName} on {ri.gpus} × {ri.acceleratorName} with
            matmuls at {formatNumber(ri.gemmEfficiency * 100)}% of peak (G_m ={' '}
            {formatFlops(ri.effectiveFlops, true)}), attention at {formatNumber(ri.attentionEfficiency * 100)}
            % (G_a = {formatFlops(ri.attentionFlops, true)}), plus{' '}
            {ri.gpus > 1
              ? `${formatDuration(ri.allReducePerTokenS)} of all-reduce per token (2 per layer, 2(TP−1)/TP × hidden × 2 B over NVLink) and `
              : ''}
            {formatDuration(ri.iterationFixedS)} per prefill
            {ri.gpus > 1 ? ' of all-reduce latency and overhead' : ' of overhead'}.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {r ? <PromptPicture r={r} /> : <div className="cc-picture" style={{ minHeight: 230 }} />}
    </WidgetFrame>
  );
}
