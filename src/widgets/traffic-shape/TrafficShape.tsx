/**
 * Traffic shape (lesson 07.01): distributions over many generated sessions (prompt and output lengths,
 * input:output ratio, prefix hits, turns per session) with the published statistics of real traces as
 * reference marks, and a trace from the learner's disk (file picker or drag and drop; or the shipped sample)
 * computed in the worker and drawn on the same axes. Bad lines are reported by number and skipped.
 */
import { useMemo } from 'react';
import { CdfChart } from '../kit/charts/CdfChart';
import { BarChart } from '../kit/charts/BarChart';
import { HistogramChart } from '../kit/charts/HistogramChart';
import { useLeadAspect } from '../kit/charts/useWindowSize';
import type { Marker } from '../kit/charts/types';
import { ParamControls } from '../kit/controls/ParamControls';
import { useProgressSimulation } from '../kit/useSimulation';
import { useCancelToShown } from '../kit/JobProgress';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame } from '../kit/frameProps';
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import {
  CODEX_SWEBENCH_PRO,
  MOONCAKE_CONVERSATION,
  MOONCAKE_TOOL_AGENT,
  publishedIoRatio,
} from '../../sim/engine/catalog/traces';
import type { WorkloadMix } from '../../sim/lessons/agentWorkload';
import type { TrafficShape as Shape } from '../../sim/lessons/trafficShape';
import {
  GENERATED_SESSION_RATE_PER_S,
  TRAFFIC_SHAPE_ID,
  trafficShapeArgs,
  trafficShapeSchema,
} from './schema';
import './traffic-shape.css';
import { useTraceLoader, type TraceLoad } from '../kit/traces/useTraceLoader';
import { TraceFilePanel, TraceIssues } from '../kit/traces/TraceFilePanel';
import { TryThis, type TryItem } from '../kit/TryThis';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-01 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch the workload to Chat: ρ falls from the hundreds to a few, and the prompt CDF moves left of both
        Mooncake means.
      </>
    ),
    set: { mix: 'chat' },
    highlight: 'io-ratio',
  },
  {
    text: (
      <>
        Lower the median turns to 5: agent prompts shrink and ρ falls, but the prefix hit ratio stays high:
        every turn after the first still re-sends everything before it.
      </>
    ),
    set: { medianTurns: 5 },
    highlight: 'hit-ratio',
  },
  {
    text: (
      <>
        Load the sample trace, or drop a Mooncake trace of your own: its lines go through the same statistics.
        Compare its ρ and hit ratio with the generated agents.
      </>
    ),
  },
];

const MIX_NAME: Record<WorkloadMix, string> = {
  agent: 'Generated: coding agents',
  chat: 'Generated: chat',
  mix: 'Generated: half agents',
};

const tokensAxis = (label: string) => ({
  label,
  unit: 'tokens',
  scale: 'log' as const,
  format: (v: number) => formatCount(v),
});

/** A vertical rule at a published mean of Mooncake's chat or tool & agent trace. */
function mooncakeMark(trace: 'chat' | 'agent', x: number, format: (v: number) => string): Marker {
  return {
    kind: 'x',
    x,
    label: `Mooncake ${trace} ${format(x)}`,
    // Without the source's name (the caption gives it): the form a narrow chart draws where the whole label would
    // run over the neighbouring rule (markerPlacement.ts).
    shortLabel: `${trace} ${format(x)}`,
    tone: trace === 'chat' ? 'muted' : 'danger',
  };
}

/**
 * The published references each CDF is read against: the means Mooncake publishes for its two traces (grey, red)
 * and the Codex/SWE-bench Pro ratio (ink). None in a series' hue: the generated sessions are blue and a loaded
 * trace vermillion, the CDFs' slot order (tests/series-hues.test.ts).
 */
export const REFERENCE_MARKS: Readonly<Record<'input' | 'output' | 'ratio', readonly Marker[]>> = {
  input: [
    mooncakeMark('chat', MOONCAKE_CONVERSATION.avgInputTokens, formatCount),
    mooncakeMark('agent', MOONCAKE_TOOL_AGENT.avgInputTokens, formatCount),
  ],
  output: [
    mooncakeMark('chat', MOONCAKE_CONVERSATION.avgOutputTokens, formatCount),
    mooncakeMark('agent', MOONCAKE_TOOL_AGENT.avgOutputTokens, formatCount),
  ],
  ratio: [
    mooncakeMark('chat', publishedIoRatio(MOONCAKE_CONVERSATION), formatRatio),
    mooncakeMark('agent', publishedIoRatio(MOONCAKE_TOOL_AGENT), formatRatio),
    {
      kind: 'x',
      x: CODEX_SWEBENCH_PRO.inputOutputRatio,
      label: `Codex ${formatRatio(CODEX_SWEBENCH_PRO.inputOutputRatio)}`,
      tone: 'fg',
    },
  ],
};

export function TrafficShape() {
  const params = useWidgetParams(TRAFFIC_SHAPE_ID, trafficShapeSchema);
  const v = params.values;
  const mix = v.mix as WorkloadMix;
  const args = useMemo(() => trafficShapeArgs(v), [v]);
  // ≈2–5 s at the controls' maxima (docs/reliability.md): progress and Cancel above the picture.
  const sim = useProgressSimulation('workloadShape', args);
  const cancel = useCancelToShown(params, sim.status === 'ready' && !sim.stale);
  const gen = sim.result?.shape ?? null;
  const { load, loadFile, loadSample, clear } = useTraceLoader();
  const trace = load.state === 'ready' ? load.result : null;
  const traceName = trace ? `Your trace: ${trace.name}` : '';

  const series = useMemo(() => {
    const out: { name: string; shape: Shape }[] = [];
    if (gen) out.push({ name: MIX_NAME[mix], shape: gen });
    if (trace) out.push({ name: traceName, shape: trace.shape });
    return out;
  }, [gen, trace, mix, traceName]);

  const hitCategories = [
    ...series.map((_, i) => (i === 0 && gen ? 'Generated' : 'Your trace')),
    'Mooncake chat*',
    'Mooncake agent*',
    'Codex agent*',
  ];
  const hitValues = [
    ...series.map((s) => s.shape.idealHitRatio.tokens),
    MOONCAKE_CONVERSATION.cacheRatio,
    MOONCAKE_TOOL_AGENT.cacheRatio,
    CODEX_SWEBENCH_PRO.cacheHitRate,
  ];
  const turnSeries = series.filter((s) => s.shape.samples.turns.length > 0);
  /** Each shown workload's samples of one statistic, as a chart's series. */
  const samplesOf = (stat: keyof Shape['samples'], of = series) =>
    of.map((s) => ({ name: s.name, samples: s.shape.samples[stat] }));
  // The first chart spans the picture beside the controls (a wide, lower chart); on a phone, where every chart is
  // one column wide, it is as tall as the others. The rest follow in the kit's grid of charts (charts.css
  // .chart-columns), one under the other where two columns would squeeze them (a lesson at 1280 px, a projector):
  // as wide as the first, and drawn at its aspect.
  const leadAspect = useLeadAspect(0.75, 0.42);

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      id={TRAFFIC_SHAPE_ID}
      title="Traffic shape: many sessions, and your own trace"
      progress={sim.progress}
      onCancel={cancel}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        clear();
      }}
      controls={<ParamControls params={params} />}
      exportData={() => ({
        rows: series.map((s) => ({
          source: s.name,
          requests: s.shape.requests,
          sessions: s.shape.sessions ?? '',
          meanInputTokens: s.shape.inputTokens.mean,
          medianInputTokens: s.shape.inputTokens.median,
          p90InputTokens: s.shape.inputTokens.p90,
          meanOutputTokens: s.shape.outputTokens.mean,
          ioRatio: s.shape.ioRatio,
          idealHitRatioTokens: s.shape.idealHitRatio.tokens,
          medianTurns: s.shape.turns?.median ?? '',
        })),
        json: { parameters: v, generated: gen, trace: trace ?? null },
      })}
      readouts={
        gen ? (
          <>
            <Readout
              emphasis
              label="Input : output ratio ρ, all requests"
              value={<span data-readout="io-ratio">{formatRatio(gen.ioRatio)}</span>}
              formula={`Σ input / Σ output = ${formatTokens(gen.totalInputTokens)} / ${formatTokens(gen.totalOutputTokens)}; Mooncake: ${formatRatio(publishedIoRatio(MOONCAKE_CONVERSATION))} chat, ${formatRatio(publishedIoRatio(MOONCAKE_TOOL_AGENT))} tool & agent`}
            />
            <Readout
              emphasis
              label="Ideal prefix hit ratio"
              value={<span data-readout="hit-ratio">{formatPercent(gen.idealHitRatio.tokens)}</span>}
              formula={`Σ hit tokens / Σ input tokens, infinite cache, ${gen.blockSize}-token blocks; Mooncake ${formatPercent(MOONCAKE_CONVERSATION.cacheRatio)} / ${formatPercent(MOONCAKE_TOOL_AGENT.cacheRatio)}`}
            />
            <Readout
              label="Requests; sessions; median turns drawn"
              value={`${formatCount(gen.requests)}; ${formatCount(gen.sessions)}; ${formatNumber(gen.turns?.median)}`}
              formula={`over ${formatDuration(gen.durationS)} of arrivals (${formatNumber(GENERATED_SESSION_RATE_PER_S)} new sessions/s)`}
            />
            <Readout
              label="Mean prompt / mean output"
              value={`${formatTokens(gen.inputTokens.mean)} / ${formatTokens(gen.outputTokens.mean)}`}
              formula={`prompt median ${formatTokens(gen.inputTokens.median)}, p90 ${formatTokens(gen.inputTokens.p90)}`}
            />
            {trace ? (
              <Readout
                emphasis
                label={`Your trace (${trace.format})`}
                value={
                  <>
                    ρ <span data-readout="trace-io-ratio">{formatRatio(trace.shape.ioRatio)}</span>, hits{' '}
                    <span data-readout="trace-hit-ratio">
                      {formatPercent(trace.shape.idealHitRatio.tokens)}
                    </span>
                  </>
                }
                formula={`${formatCount(trace.shape.requests)} requests; mean prompt ${formatTokens(trace.shape.inputTokens.mean)}, mean output ${formatTokens(trace.shape.outputTokens.mean)}`}
              />
            ) : null}
          </>
        ) : null
      }
      caption={
        gen ? (
          <>
            Empirical CDFs over all {formatCount(gen.requests)} requests of {formatCount(gen.sessions)}{' '}
            generated sessions{trace ? ` and of ${trace.name}` : ''} (log axes for lengths and ratios).
            Vertical rules: the means the Mooncake paper (FAST&apos;25, Table 2) publishes for Kimi&apos;s
            conversation and tool &amp; agent traces, and the Codex/SWE-bench Pro ratio of the vLLM–Mooncake
            blog. Bars marked * are published aggregates, not recomputed here. Prefix hits replay requests in
            arrival order into an infinite cache of {gen.blockSize}-token blocks, so they include a system
            prompt shared across sessions.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
      more={
        gen ? (
          <div className="chart-columns">
            <CdfChart
              legend
              aspect={leadAspect}
              title="Output length per request, CDF"
              series={samplesOf('output')}
              x={tokensAxis('Output length')}
              markers={REFERENCE_MARKS.output}
            />
            <CdfChart
              legend
              aspect={leadAspect}
              title="Input:output ratio per request, CDF"
              series={samplesOf('ratio')}
              x={{ label: 'Prompt ÷ output', unit: '×', scale: 'log', format: (x) => formatCount(x) }}
              markers={REFERENCE_MARKS.ratio}
            />
            <CdfChart
              legend
              aspect={leadAspect}
              title="Share of each prompt found in an ideal prefix cache, CDF"
              series={samplesOf('hitShare')}
              x={{ label: 'Prefix hit share of the prompt', format: (x) => formatPercent(x), domain: [0, 1] }}
            />
            <BarChart
              title="Ideal prefix hit ratio, share of all prompt tokens"
              categories={hitCategories}
              series={[{ name: 'Prefix hit ratio', values: hitValues }]}
              value={{ label: 'Prefix hit ratio', format: (x) => formatPercent(x), domain: [0, 1] }}
              orientation="horizontal"
              legend={false}
              aspect={leadAspect}
            />
            {turnSeries.length ? (
              <HistogramChart
                title="Turns per session, histogram"
                series={samplesOf('turns', turnSeries)}
                x={{ label: 'Turns per session', unit: 'turns', scale: 'log', format: (x) => formatCount(x) }}
                y={{ label: 'Share of sessions', format: (x) => formatPercent(x), zero: true }}
                legend
                aspect={leadAspect}
                normalize="fraction"
              />
            ) : null}
          </div>
        ) : null
      }
    >
      <TraceFilePanel
        load={load}
        onFile={loadFile}
        onSample={loadSample}
        onClear={clear}
        renderReady={(result) => <TraceSummary result={result} />}
      />
      {/* The first chart, across the picture: on a phone the controls follow it, then the rest (`more`). */}
      {gen ? (
        <div className="traffic-lead">
          <CdfChart
            legend
            aspect={leadAspect}
            title="Prompt (input) length per request, CDF"
            series={samplesOf('input')}
            x={tokensAxis('Prompt length')}
            markers={REFERENCE_MARKS.input}
          />
        </div>
      ) : null}
    </WidgetFrame>
  );
}

function TraceSummary({ result }: { result: Extract<TraceLoad, { state: 'ready' }>['result'] }) {
  const s = result.shape;
  return (
    <div className="trace-summary">
      <p>
        <strong>{result.name}</strong> ({formatBytes(result.bytes)}, {result.format} format):{' '}
        {formatCount(s.requests)} requests
        {s.sessions !== null ? ` in ${formatCount(s.sessions)} sessions` : ''} over{' '}
        {formatDuration(s.durationS)}, read in {formatNumber(result.ms)} ms.
        {s.requests === 0 ? ' No valid request: nothing to draw.' : null}
      </p>
      <TraceIssues errors={result.errors} errorCount={result.errorCount} />
    </div>
  );
}
