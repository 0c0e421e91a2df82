/**
 * "The mask falls on the logits" (lesson 07.08): for every step of a tool call, the top candidates' logits as
 * bars with the real XGrammar mask applied to them (blocked ones drop to −∞, the rest renormalise), and beside
 * them the whole 200,019-bit mask as a pixel grid. The mask and the reply are computed in the worker by the
 * real engine; the logits are illustrative (no model runs in the page). The picture is a function of
 * (trace, t): see maskPlayback.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ParamControls } from '../kit/controls/ParamControls';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame } from '../kit/frameProps';
import { usePreferences } from '../../app/services';
import { formatNumber, formatPercent } from '../../lib/format';
import type { StepContext } from '../../sim/lessons/grammar/stepContext';
import { LogitBars, showToken } from './LogitBars';
import { MaskGrid } from './MaskGrid';
import { playbackFrame, playbackLabel } from './maskPlayback';
import { MASK_LOGITS_ID, maskLogitsArgs, maskLogitsSchema } from './schema';
import './structured-output.css';
import { TryThis, type TryItem } from '../kit/TryThis';
import { useFrameStamp } from '../kit/useFrameStamp';

/** tiktoken o200k_base's <|endoftext|> (src/sim/lessons/grammar/vocab.ts). */
const EOS = 199_999;
/** Steps per second at 1×: at the defaults the first dark step and the first free-string step land within 4 s. */
const STEPS_PER_SECOND = 1.25;

/** Where a step stands: a short name for the read-out and the reason for the mask it gets. */
const CONTEXT_LABEL: Record<StepContext, [string, string]> = {
  'free-text': ['free prose', 'outside the tool call: unconstrained'],
  trigger: ['writing the trigger', 'still prose, unless a token would complete it into a wrong tag'],
  tag: ['inside the tag', 'after the trigger the rest of the tag is forced'],
  fixed: ['fixed by the schema', 'punctuation, a key or an enum value'],
  number: ['inside a number', 'digits, and what may end the number'],
  'free-string': ['inside a free string', 'nearly any token is a legal piece of a string'],
};

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Watch the first second: at step 0 almost the whole grid goes dark, only <code>{'{'}</code> and{' '}
        <code>{'{"'}</code> survive, and the chatty candidates fall to −∞.
      </>
    ),
    // t = k + 1 is step k settled (maskPlayback.ts).
    time: 1,
    highlight: 'allowed',
  },
  {
    text: (
      <>
        Step to <code>Lis</code> (step 3): inside the city&apos;s free string the grid lights up again and the
        mask removes almost no probability.
      </>
    ),
    time: 4,
    highlight: 'masked-mass',
  },
  {
    text: (
      <>
        Set Constrain to &quot;only the tool call&quot;: the prose is unconstrained (every id lit, nothing
        removed) until the trigger <code>&lt;function=</code>; then the grammar takes over and the grid goes
        dark.
      </>
    ),
    set: { mode: 'tool-span' },
    time: 0,
    play: true,
    highlight: 'step-context',
  },
  {
    text: <>Change the seed: the illustrative logits change, the mask and its allowed counts do not.</>,
    set: { seed: 2 },
    time: 1,
    highlight: 'allowed',
  },
  {
    text: <>Pick run_shell and step into the timeout: inside a number only digits and its ends are lit.</>,
    // Step 16 is the first one inside the number 30 (run-shell preset): 12 ids lit.
    set: { preset: 'run-shell' },
    time: 17,
    highlight: 'allowed',
  },
];

export function MaskOverLogits() {
  const params = useWidgetParams(MASK_LOGITS_ID, maskLogitsSchema);
  const v = params.values;
  const args = useMemo(() => maskLogitsArgs(v), [v]);
  const sim = useSimulation('grammarMaskLogits', args);
  const trace = sim.result;
  const n = trace?.steps.length ?? 0;
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const transport = useTransport({ duration: n, rate: STEPS_PER_SECOND, step: 1, reducedMotion: reduced });
  const frame = playbackFrame(transport.t, n);
  const step = trace ? trace.steps[frame.step] : null;

  // A new run starts at its beginning, unless a tour step or "Show me" asked for a time while the run it had
  // just set up was still on its way (a seek then would land in the old run and be undone when the new one came).
  const [pendingSeek, setPendingSeek] = useState<number | null>(null);
  const [shownTrace, setShownTrace] = useState(trace);
  if (shownTrace !== trace) {
    setShownTrace(trace);
    if (trace) {
      transport.seek(pendingSeek ?? 0);
      setPendingSeek(null);
    }
  }
  const { store } = params;
  const stageTransport = useMemo(
    () => ({
      ...transport,
      seek: (t: number) => {
        const asked = store.getState().values;
        if (asked.preset !== v.preset || asked.mode !== v.mode || asked.seed !== v.seed) setPendingSeek(t);
        else transport.seek(t);
      },
    }),
    [transport, store, v.preset, v.mode, v.seed],
  );

  // Play once by itself the first time the widget is on screen (never under reduced motion).
  // A state-held element, not a ref: the picture mounts only once the frame is ready, which can be after the
  // trace arrived, and the observer must start then.
  const [viewEl, setViewEl] = useState<HTMLDivElement | null>(null);
  const [autoplayed, setAutoplayed] = useState(false);
  const { play } = transport;
  const tRef = useRef(transport.t);
  useEffect(() => {
    tRef.current = transport.t;
  });
  useEffect(() => {
    const el = viewEl;
    if (!el || !trace || autoplayed || reduced || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setAutoplayed(true);
          // A tour step that scrolled here and put the clock at its step wants that step shown, not played.
          if (tRef.current === 0) play();
        }
      },
      { threshold: 0.4 },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [viewEl, trace, autoplayed, reduced, play]);

  const nextI = step ? step.candidates.findIndex((c) => c.kind === 'next') : -1;
  // The animated picture (bars and mask grid): a frame counts when the playback frame it shows changes. Marks:
  // two bars per candidate row and the tail's two.
  const panelsRef = useFrameStamp<HTMLDivElement>(
    step ? 2 * (step.candidates.length + 1) : 0,
    `${frame.step}:${frame.wipe}:${frame.drop}:${frame.renorm}`,
  );
  const share = step && trace ? step.allowedCount / trace.vocabSize : 0;

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      id={MASK_LOGITS_ID}
      title="The mask falls on the logits"
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={<ParamControls params={params} />}
      transport={
        trace ? <TransportBar transport={stageTransport} format={(t) => playbackLabel(t, n)} /> : undefined
      }
      exportData={() => ({
        rows: (trace?.steps ?? []).map((s, i) => ({
          step: i,
          token: s.token,
          tokenId: s.tokenId,
          context: s.context,
          allowed: s.allowedCount,
          maskedProbability: s.masked,
        })),
        json: { parameters: v, steps: trace?.steps ?? [] },
      })}
      readouts={
        trace && step ? (
          <>
            <Readout
              emphasis
              label={`Allowed at step ${frame.step}`}
              value={
                <span data-readout="allowed" data-value={step.allowedCount}>
                  {formatNumber(step.allowedCount)} of {formatNumber(trace.vocabSize)}
                </span>
              }
              formula={
                <span data-readout="allowed-share" data-value={share}>
                  {formatPercent(share, 3)} of the vocabulary lit (popcount of the real mask)
                </span>
              }
            />
            <Readout
              label="Probability the mask removed"
              value={
                <span data-readout="masked-mass" data-value={step.masked}>
                  {formatPercent(step.masked, 2)}
                </span>
              }
              formula="the blocked tokens' share of the softmax before the mask (illustrative logits)"
            />
            <Readout
              label="Next token of the reply"
              value={
                <code data-readout="next-token">
                  {step.tokenId === EOS ? '<|endoftext|>' : showToken(step.token)}
                </code>
              }
              formula={
                nextI >= 0
                  ? `p = ${formatPercent(step.before[nextI], 2)} before the mask, ${formatPercent(step.after[nextI], 2)} after`
                  : ''
              }
            />
            <Readout
              label="Where the step is"
              value={
                <span data-readout="step-context" data-value={step.context}>
                  {CONTEXT_LABEL[step.context][0]}
                </span>
              }
              formula={`${CONTEXT_LABEL[step.context][1]}; ${
                trace.mode === 'tool-span'
                  ? `structural tag, the grammar takes over at step ${trace.takeover}`
                  : 'JSON mode, the grammar constrains every step'
              }`}
            />
          </>
        ) : null
      }
      caption={
        trace ? (
          <>
            Left: the reply&apos;s top candidates at this step and their logits. The mask is real: XGrammar
            (WebAssembly, in a worker) filled its {formatNumber(trace.vocabSize)}-bit bitmask for this exact
            prefix, and the grid beside the bars shows every bit of it. The logits are not: no language model
            runs in this page, so they are a seeded stand-in in which the reply&apos;s next token is favoured
            and chat or Markdown openers compete with it, strongest at the start. Blocked candidates get −∞;
            the others keep their relative odds and are renormalised. This widget compiled its grammar for its
            own run in {formatNumber(trace.compileMs, 3)} ms, timed in this browser; the mask stepper above
            times its own compile, so even for the same schema the two differ a little from run to run.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {trace && step ? (
        <div ref={setViewEl} className="so-logits" data-step={frame.step} data-autoplayed={autoplayed}>
          <p className="so-illustrative" data-readout="illustrative">
            Illustrative logits (no model runs here); real mask from XGrammar over o200k.
          </p>
          <div className="so-doc" aria-label="The reply so far" data-figure="reply">
            {trace.steps.slice(0, frame.step).map((s, i) => (
              <span key={i} className="so-tok" data-free={s.context === 'free-text'}>
                {s.token}
              </span>
            ))}
            <span className="so-tok" data-next="true" title="the token the reply writes at this step">
              {step.tokenId === EOS ? '⟨end⟩' : step.token}
            </span>
          </div>
          <div ref={panelsRef} className="so-logits-panels" data-figure="mask-picture">
            <LogitBars step={step} drop={frame.drop} renorm={frame.renorm} eosId={EOS} />
            <MaskGrid
              masks={trace.masks}
              wordsPerMask={trace.wordsPerMask}
              vocabSize={trace.vocabSize}
              step={frame.step}
              wipe={frame.wipe}
              first={frame.step === 0}
            />
          </div>
        </div>
      ) : null}
    </WidgetFrame>
  );
}
