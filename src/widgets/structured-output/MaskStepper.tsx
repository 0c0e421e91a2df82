/**
 * "The mask, step by step" (lesson 07.08): a real grammar engine (XGrammar, WASM, in the worker) compiles a
 * tool-call JSON Schema against the o200k vocabulary, then a valid document is generated token by token under
 * its mask. The chart shows how many of the 200,019 tokens the mask allows at every step; the transport moves
 * through the steps (the picture is a function of the trace and t).
 */
import { useMemo, useState } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import type { Marker } from '../kit/charts/types';
import { ParamControls } from '../kit/controls/ParamControls';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame } from '../kit/frameProps';
import { usePreferences } from '../../app/services';
import { formatCount, formatNumber } from '../../lib/format';
import { findPreset, SCHEMA_PRESETS } from '../../sim/lessons/grammar/presets';
import { MASK_STEPPER_ID, maskStepperSchema } from './schema';
import { documentLimitMessage, schemaLimitMessage } from '../../sim/lessons/grammar/limits';
import type { JobProgress } from '../../worker/progress';
import { JobProgressLine } from '../kit/JobProgress';
import './structured-output.css';
import { TryThis, type TryItem } from '../kit/TryThis';
import { median } from '../../lib/stats';

export interface Texts {
  schema: string;
  document: string;
}

export function presetTexts(id: string): Texts {
  const p = findPreset(id) ?? SCHEMA_PRESETS[0];
  return { schema: JSON.stringify(p.schema, null, 2), document: JSON.stringify(p.document, null, 2) };
}

/** Show whitespace in a token so that a lone space or newline is visible. */
function showToken(s: string): string {
  return s.replace(/\n/g, '↵').replace(/ /g, '␣');
}

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Step through the first three tokens: at step 0 only two of 200,019 tokens are allowed, and neither is
        &quot;Sure&quot;.
      </>
    ),
    time: 0,
    highlight: 'allowed',
  },
  {
    text: (
      <>
        Step into the city&apos;s value: inside a free string nearly the whole vocabulary is allowed; what
        stays masked are tokens that would close the string wrongly or carry raw control characters.
      </>
    ),
    // Step 3 samples "Lis", the first token inside the city's string (get-weather preset).
    time: 3,
    highlight: 'allowed',
  },
  {
    text: (
      <>
        Pick &quot;one of three tools&quot; and stop after <code>&quot;read</code>: the jump-forward string
        writes the rest of the call&apos;s frame for free.
      </>
    ),
    // Step 3 samples "read"; at step 4 the jump-forward string is the rest of `_file","arguments":{"path":"`.
    set: { preset: 'tool-choice' },
    time: 4,
    highlight: 'jump-forward',
  },
  {
    text: (
      <>
        Change <code>&quot;celsius&quot;</code> to <code>&quot;kelvin&quot;</code> in the document and
        compile: the mask refuses it at the first token that leaves the enum.
      </>
    ),
  },
];

/** What Cancel goes back to: the preset and texts applied before the trace that is running. */
interface Applied {
  preset: string;
  custom: Texts | null;
}

type Field = 'schema' | 'document';

/** The texts over the limits (grammar/limits.ts), each said under the editor it is about; empty when within. */
function inputProblems(t: Texts): { field: Field; message: string }[] {
  const out: { field: Field; message: string }[] = [];
  const schema = schemaLimitMessage(t.schema);
  if (schema) out.push({ field: 'schema', message: schema });
  const document = documentLimitMessage(t.document);
  if (document) out.push({ field: 'document', message: document });
  return out;
}

/** Shown from Compile until the worker's first frame arrives (the worker's own first frame says the same). */
const COMPILING: JobProgress = {
  label: 'Compiling the schema',
  unit: 'steps',
  done: 0,
  total: 0,
  stage: 1,
  stages: 2,
};

export function MaskStepper() {
  const params = useWidgetParams(MASK_STEPPER_ID, maskStepperSchema);
  const v = params.values;
  const [draft, setDraft] = useState<Texts>(() => presetTexts(v.preset));
  const [custom, setCustom] = useState<Texts | null>(null);
  // Refused before sending (over a limit); the draft stays in the editors.
  const [refused, setRefused] = useState<{ field: Field; message: string }[]>([]);
  const [cancelTo, setCancelTo] = useState<Applied | null>(null);
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const [shownPreset, setShownPreset] = useState(v.preset);
  if (shownPreset !== v.preset) {
    // A preset was picked: its texts replace the editor's (adjusting state during render, React's documented pattern).
    setShownPreset(v.preset);
    if (v.preset !== 'custom') {
      setDraft(presetTexts(v.preset));
      setCustom(null);
      setRefused([]);
    }
  }
  const applied =
    v.preset === 'custom' && custom
      ? custom
      : presetTexts(v.preset === 'custom' ? SCHEMA_PRESETS[0].id : v.preset);
  const args = useMemo(
    () => ({ schema: applied.schema, document: applied.document }),
    [applied.schema, applied.document],
  );
  const sim = useSimulation('grammarMaskTrace', args, setProgress);
  const res = sim.result;
  const trace = res?.ok ? res.trace : null;
  const failed = res && !res.ok ? res : null;
  const schemaError = failed?.field === 'schema' ? failed.message : null;
  const documentError = failed?.field === 'document' ? failed.message : null;
  const running = sim.status === 'loading' || sim.stale;

  const steps = trace?.steps ?? [];
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const transport = useTransport({
    duration: Math.max(1, steps.length - 1),
    rate: 2,
    step: 1,
    reducedMotion: reduced,
  });
  const k = Math.min(steps.length - 1, Math.max(0, Math.floor(transport.t + 1e-9)));
  const step = steps.length > 0 ? steps[k] : null;

  const series = useMemo(
    () =>
      trace ? [{ name: 'Allowed tokens', points: trace.steps.map((s, i) => ({ x: i, y: s.allowed })) }] : [],
    [trace],
  );
  const markers: Marker[] = trace
    ? [
        {
          kind: 'y',
          y: trace.vocabSize,
          label: `whole vocabulary ${formatNumber(trace.vocabSize)}`,
          tone: 'muted',
        },
        { kind: 'x', x: k, label: `step ${k}`, tone: 'accent' },
        ...(step
          ? [
              {
                kind: 'point' as const,
                x: k,
                y: step.allowed,
                label: formatNumber(step.allowed),
                tone: 'accent' as const,
              },
            ]
          : []),
      ]
    : [];
  const medianMaskUs = median(steps.map((x) => x.maskUs));
  // The jump-forward string starts at this step; what follows the sampled token is forced too.
  const forced = step
    ? step.jumpForward.startsWith(step.token)
      ? step.jumpForward.slice(step.token.length)
      : ''
    : '';

  const apply = () => {
    const problems = inputProblems(draft);
    setRefused(problems);
    if (problems.length > 0) return;
    setCancelTo({ preset: v.preset, custom });
    setProgress(null);
    setCustom(draft);
    if (v.preset !== 'custom') {
      setShownPreset('custom');
      params.set('preset', 'custom');
    }
    transport.seek(0);
  };

  // Stop the running trace (the worker stops at its next checkpoint) and go back to what was shown before. The
  // editors keep what was typed: the preset is restored together with the preset shown, so it does not reload them.
  const cancel = () => {
    if (!cancelTo) return;
    setCustom(cancelTo.custom);
    if (cancelTo.preset !== v.preset) {
      setShownPreset(cancelTo.preset);
      params.set('preset', cancelTo.preset);
    }
    setCancelTo(null);
    transport.seek(0);
  };

  const fieldMessage = (field: Field, fromWorker: string | null) => {
    const message =
      refused.length > 0 ? (refused.find((r) => r.field === field)?.message ?? null) : fromWorker;
    return message ? (
      <div className="so-error" role="alert" data-readout={`${field}-error`}>
        {message}
      </div>
    ) : null;
  };

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      id={MASK_STEPPER_ID}
      title="The mask, step by step"
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        setDraft(presetTexts(maskStepperSchema.preset.default));
        setCustom(null);
        setRefused([]);
        setCancelTo(null);
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={
        <>
          <ParamControls params={params} />
          <div className="so-editor">
            <div>
              <label htmlFor="so-schema">JSON Schema of the tool&apos;s arguments</label>
              <textarea
                id="so-schema"
                spellCheck={false}
                value={draft.schema}
                onChange={(e) => setDraft({ ...draft, schema: e.currentTarget.value })}
              />
              {fieldMessage(
                'schema',
                schemaError && !/again\.$/.test(schemaError)
                  ? `${schemaError} Fix the schema and compile again, or pick a preset.`
                  : schemaError,
              )}
            </div>
            <div>
              <label htmlFor="so-document">Document the model writes (sent compact)</label>
              <textarea
                id="so-document"
                spellCheck={false}
                value={draft.document}
                onChange={(e) => setDraft({ ...draft, document: e.currentTarget.value })}
              />
              {fieldMessage('document', documentError)}
            </div>
            <div className="so-editor-actions">
              <button type="button" onClick={apply}>
                Compile and trace
              </button>
              {running && cancelTo ? (
                <JobProgressLine progress={progress ?? COMPILING} onCancel={cancel} />
              ) : (
                <span className="so-note">
                  Edits take effect when you compile. A document the schema forbids stops at the first masked
                  token.
                </span>
              )}
            </div>
          </div>
        </>
      }
      transport={
        trace ? (
          <TransportBar transport={transport} format={(t) => `step ${Math.floor(t + 1e-9)}`} />
        ) : undefined
      }
      exportData={() => ({
        rows: steps.map((s, i) => ({
          step: i,
          token: s.token,
          tokenId: s.tokenId,
          allowed: s.allowed,
          accepted: s.accepted,
          maskUs: s.maskUs,
          jumpForward: s.jumpForward,
        })),
        json: { parameters: v, applied, result: res },
      })}
      readouts={
        trace && step ? (
          <>
            <Readout
              emphasis
              label={`Allowed at step ${k}`}
              value={
                <span data-readout="allowed" data-value={step.allowed}>
                  {formatNumber(step.allowed)} of {formatNumber(trace.vocabSize)}
                </span>
              }
              formula={`popcount(bitmask) = ${formatNumber((100 * step.allowed) / trace.vocabSize, 3)}% of the vocabulary`}
            />
            <Readout
              label="Next token"
              value={
                <code data-readout="next-token">
                  {step.tokenId === trace.setup.eosId ? '<|endoftext|>' : showToken(step.token)}
                </code>
              }
              formula={
                step.accepted
                  ? `id ${step.tokenId}: its bit is set, so the mask keeps it`
                  : `id ${step.tokenId}: masked, the schema forbids it here`
              }
            />
            <Readout
              label="Forced continuation (jump-forward)"
              value={
                <code data-readout="jump-forward">
                  {step.jumpForward ? showToken(step.jumpForward) : '— (a real choice)'}
                </code>
              }
              formula="text every allowed path must write next"
            />
            <Readout
              label="Compile, then mask per step"
              value={
                <span data-readout="compile-ms" data-value={trace.compileMs}>
                  {formatNumber(trace.compileMs, 3)} ms, then {formatNumber(medianMaskUs, 2)} µs
                </span>
              }
              formula={`median per step; measured in this browser when the trace ran; engine set-up ${formatNumber(trace.setup.vocabMs + trace.setup.tokenizerInfoMs, 3)} ms once`}
            />
          </>
        ) : null
      }
      caption={
        trace ? (
          <>
            XGrammar (WebAssembly, in a worker) compiled the schema against o200k&apos;s{' '}
            {formatNumber(trace.vocabSize)} token ids, then the document{' '}
            {trace.complete ? 'was generated' : 'was fed'} one real o200k token at a time. The line is the
            number of tokens the mask allows before each step (log scale); it drops to a handful wherever the
            schema fixes the text (keys, punctuation, enum values) and jumps to nearly the whole vocabulary
            inside a free string. {trace.complete ? 'The last step allows only <|endoftext|>.' : ''}
            {trace.schema.removedBounds.length > 0
              ? ` Removed before compiling (they make compilation very slow, lesson 07.09): ${trace.schema.removedBounds.join(', ')}.`
              : ''}
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {failed && !trace ? (
        <p className="so-note">
          No trace:{' '}
          {failed.field === 'schema' ? 'the schema did not compile' : 'the document is over the limit'}.
        </p>
      ) : trace && step ? (
        <>
          <LineChart
            title="Tokens the grammar mask allows at each step of the document"
            description="One point per generation step: how many of the vocabulary's token ids the mask allows before that token is sampled, on a log scale."
            series={series}
            x={{
              label: 'Generation step',
              unit: 'tokens',
              format: (n) => formatNumber(n),
              domain: [0, Math.max(1, steps.length - 1)],
            }}
            y={{
              label: 'Allowed tokens',
              unit: 'tokens',
              scale: 'log',
              format: (n) => formatCount(n),
              domain: [1, trace.vocabSize * 1.6],
            }}
            markers={markers}
            curve="step-after"
            points
            legend={false}
          />
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
              <code>{showToken(steps[trace.rejectedAt].token)}</code> is not allowed there, so a constrained
              model could never have written it.
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
      ) : null}
    </WidgetFrame>
  );
}
