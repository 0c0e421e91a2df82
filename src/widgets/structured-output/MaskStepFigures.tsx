/**
 * Below the mask stepper's chart (MaskStepper.tsx), at step k: the document so far with the token sampled now and
 * the text the grammar forces after it, where the mask refused the document if it did, the probe tokens' verdicts
 * and a spread of the tokens the mask allows.
 */
import { formatNumber } from '../../lib/format';
import type { TraceResult, TraceStep } from '../../worker/grammarEngine';
import { showToken } from './LogitBars';

/** The jump-forward string starts at this step; what follows the sampled token is forced too. */
export function forcedAfter(step: TraceStep): string {
  return step.jumpForward.startsWith(step.token) ? step.jumpForward.slice(step.token.length) : '';
}

export function MaskStepFigures({ trace, k }: { trace: TraceResult; k: number }) {
  const steps = trace.steps;
  const step = steps[k];
  const forced = forcedAfter(step);
  return (
    <>
      <div className="so-doc" aria-label="Document generated so far" data-figure="document">
        {steps.slice(0, k).map((s, i) => (
          <span key={i} className="so-tok">
            {s.token}
          </span>
        ))}
        <span
          className="so-tok"
          data-next={step.accepted}
          data-rejected={!step.accepted}
          title="the token sampled at this step"
        >
          {step.tokenId === trace.setup.eosId ? '⟨end⟩' : step.token}
        </span>
        {forced ? (
          <span className="so-jump" title="Forced by the grammar after this token (jump-forward text)">
            {forced}
          </span>
        ) : null}
      </div>
      {trace.rejectedAt !== null ? (
        <p className="so-error" role="status" data-readout="rejected">
          The mask refuses the document at step {trace.rejectedAt}: token{' '}
          <code>{showToken(steps[trace.rejectedAt].token)}</code> is not allowed there, so a constrained model
          could never have written it.
        </p>
      ) : null}
      <div className="so-panels">
        <div>
          <div className="so-panel-title">Probe tokens at step {k}</div>
          <ul className="so-chips" data-figure="probes" aria-label={`Probe tokens at step ${k}`}>
            {trace.probes.map((p, i) => (
              <li key={p} data-allowed={step.probes[i]} data-probe={p}>
                {step.probes[i] ? '✓ ' : '✗ '}
                {showToken(p)}
              </li>
            ))}
          </ul>
          <div className="so-note">✓ allowed, ✗ masked</div>
        </div>
        <div>
          <div className="so-panel-title">
            A spread of the {formatNumber(step.allowed)} allowed token{step.allowed === 1 ? '' : 's'}
          </div>
          <ul className="so-chips" data-figure="allowed-sample">
            {step.sample.map((s, i) => (
              <li key={i}>{showToken(s)}</li>
            ))}
          </ul>
        </div>
      </div>
    </>
  );
}
