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
import { MASK_STEPPER_ID, maskStepperSchema } from './schema';
import type { JobProgress } from '../../worker/progress';
import './structured-output.css';
import { TryThis, type TryItem } from '../kit/TryThis';
import { median } from '../../lib/stats';
import { showToken } from './LogitBars';
import { MaskStepFigures } from './MaskStepFigures';
import { SchemaEditor } from './SchemaEditor';
import { useTraceTexts } from './useTraceTexts';
import { O200K_VOCAB_SIZE } from '../../sim/lessons/grammar/vocab';

// The preset texts are read here by the controls test's widget table (tests/widget-computations.ts).

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Step through the first three tokens: at step 0 only two of {formatNumber(O200K_VOCAB_SIZE, 6)} tokens
        are allowed, and neither is &quot;Sure&quot;.
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
        writes the rest of the call&apos;s frame without a decode step per token (the engine still prefills
        it, in one pass).
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

/**
 * The chart's markers: the whole vocabulary (grey), and the step shown, a rule and a dot on the allowed-tokens
 * line, in ink (the kit's default tone): the playhead must not read as the line it moves along, blue.
 */
export function stepMarkers(vocabSize: number, k: number, allowed: number | null): Marker[] {
  return [
    {
      kind: 'y',
      y: vocabSize,
      label: `whole vocabulary ${formatNumber(vocabSize)}`,
      // On a phone the whole label crosses the step line where the mask opens to every token and closes again.
      shortLabel: `all ${formatNumber(vocabSize)}`,
      tone: 'muted',
    },
    { kind: 'x', x: k, label: `step ${k}`, tone: 'fg' },
    ...(allowed !== null
      ? [{ kind: 'point' as const, x: k, y: allowed, label: formatNumber(allowed), tone: 'fg' as const }]
      : []),
  ];
}

export function MaskStepper() {
  const params = useWidgetParams(MASK_STEPPER_ID, maskStepperSchema);
  const v = params.values;
  const texts = useTraceTexts(params);
  const { applied } = texts;
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const args = useMemo(
    () => ({ schema: applied.schema, document: applied.document }),
    [applied.schema, applied.document],
  );
  const sim = useSimulation('grammarMaskTrace', args, setProgress);
  const res = sim.result;
  const trace = res?.ok ? res.trace : null;
  const failed = res && !res.ok ? res : null;
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
  const markers = trace ? stepMarkers(trace.vocabSize, k, step?.allowed ?? null) : [];
  const medianMaskUs = median(steps.map((x) => x.maskUs));

  const apply = () => {
    if (!texts.apply()) return;
    setProgress(null);
    transport.seek(0);
  };

  // Stop the running trace (the worker stops at its next checkpoint) and go back to what was shown before.
  const cancel = () => {
    if (texts.cancel()) transport.seek(0);
  };

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      id={MASK_STEPPER_ID}
      title="The mask, step by step"
      corrected={params.corrected}
      onReset={() => {
        texts.reset();
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={
        <>
          <ParamControls params={params} />
          <SchemaEditor
            draft={texts.draft}
            onDraft={texts.setDraft}
            refused={texts.refused}
            failed={failed}
            onApply={apply}
            running={running && texts.cancellable ? { progress, onCancel: cancel } : null}
          />
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
              // Each widget times its own compile (the mask-over-logits widget compiles the same schema again), so the
              // read-out says whose run it is: two timings of one schema differ by run-to-run noise.
              formula={`this widget's own run, timed in this browser (median per step); engine set-up ${formatNumber(trace.setup.vocabMs + trace.setup.tokenizerInfoMs, 3)} ms once`}
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
          <MaskStepFigures trace={trace} k={k} />
        </>
      ) : null}
    </WidgetFrame>
  );
}
