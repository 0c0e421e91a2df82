/**
 * One step's top candidates: the illustrative logit of each as a bar, the real mask's verdict on it, and its
 * probability before and after the mask. As `drop` goes 0 → 1 the blocked logits fall to −∞; as `renorm`
 * goes 0 → 1 the probability bars move from the softmax before the mask to the renormalised one after (the
 * figures beside them always print both).
 */
import { memo } from 'react';
import { formatNumber, formatPercent } from '../../lib/format';
import type { LogitStep } from '../../worker/grammarLogitsEngine';

/** Logit axis of the bars: the illustrative logits lie between about 1 and 8. */
const Z_MAX = 8;

const lerp = (a: number, b: number, x: number) => a + (b - a) * x;

/** Show whitespace in a token so that a lone space or newline is visible. */
export function showToken(s: string): string {
  return s.replace(/\n/g, '↵').replace(/ /g, '␣');
}

function pct(p: number): string {
  if (p === 0) return '0%';
  if (p < 0.001) return '<0.1%';
  return formatPercent(p, p < 0.1 ? 1 : 0);
}

const KIND_LABEL = {
  next: 'the reply’s next token',
  prose: 'prose / Markdown',
  alternative: 'other',
} as const;

export const LogitBars = memo(function LogitBars({
  step,
  drop,
  renorm,
  eosId,
}: {
  step: LogitStep;
  drop: number;
  renorm: number;
  eosId: number;
}) {
  const rows = step.candidates.map((c, i) => ({
    key: `${c.id}`,
    text: c.id === eosId ? '<|endoftext|>' : showToken(step.candidateText[i]),
    kind: KIND_LABEL[c.kind],
    allowed: c.allowed,
    logit: c.logit,
    before: step.before[i],
    after: step.after[i],
    isNext: c.kind === 'next',
  }));
  const tailI = step.candidates.length;
  return (
    <div className="so-bars" data-figure="logit-bars" role="table" aria-label="Top candidates under the mask">
      <div className="so-bar-row so-bar-head" role="row">
        <span role="columnheader">candidate</span>
        <span role="columnheader">logit z (illustrative)</span>
        <span role="columnheader">p before → after the mask</span>
      </div>
      {rows.map((r) => {
        const falling = !r.allowed ? drop : 0;
        const width = (100 * Math.max(0, r.logit) * (1 - falling)) / Z_MAX;
        const p = lerp(r.before, r.after, renorm);
        return (
          <div
            key={r.key}
            className="so-bar-row"
            role="row"
            data-allowed={r.allowed}
            data-next={r.isNext}
            data-shown-p={p.toFixed(4)}
          >
            <span role="cell" className="so-bar-token">
              <span>
                <code>{r.text}</code>{' '}
                <span className="so-bar-verdict">{r.allowed ? '✓ allowed' : '✗ masked'}</span>
              </span>
              <span className="so-bar-kind">{r.kind}</span>
            </span>
            <span role="cell" className="so-bar-cell">
              <span className="so-bar-track">
                <span className="so-bar so-bar-logit" style={{ width: `${width}%` }} />
              </span>
              <span className="so-bar-value">
                {!r.allowed && drop >= 1 ? '−∞' : formatNumber(r.logit, 2)}
              </span>
            </span>
            <span role="cell" className="so-bar-cell">
              <span className="so-bar-track">
                <span className="so-bar so-bar-before" style={{ width: `${100 * r.before}%` }} />
                <span className="so-bar so-bar-after" style={{ width: `${100 * p}%` }} />
              </span>
              {/* The figures are the step's, whatever the frame: the bar moves, the text never reads "33% → 33%"
                  beside "✗ masked" while the animation is paused before the renormalisation. */}
              <span className="so-bar-value">
                {pct(r.before)} → {pct(r.after)}
              </span>
            </span>
          </div>
        );
      })}
      <div
        className="so-bar-row so-bar-tail"
        role="row"
        data-shown-p={lerp(step.before[tailI], step.after[tailI], renorm).toFixed(4)}
      >
        <span role="cell" className="so-bar-token">
          <span>all other {formatNumber(step.tail.count)} tokens</span>
          <span className="so-bar-verdict">
            {formatNumber(step.tail.allowed)} allowed, {formatNumber(step.tail.count - step.tail.allowed)}{' '}
            masked
          </span>
        </span>
        <span role="cell" className="so-bar-cell">
          <span className="so-bar-value">each z ≈ {formatNumber(step.tail.logit, 2)}</span>
        </span>
        <span role="cell" className="so-bar-cell">
          <span className="so-bar-track">
            <span className="so-bar so-bar-before" style={{ width: `${100 * step.before[tailI]}%` }} />
            <span
              className="so-bar so-bar-after"
              style={{ width: `${100 * lerp(step.before[tailI], step.after[tailI], renorm)}%` }}
            />
          </span>
          <span className="so-bar-value">
            {pct(step.before[tailI])} → {pct(step.after[tailI])}
          </span>
        </span>
      </div>
    </div>
  );
});
