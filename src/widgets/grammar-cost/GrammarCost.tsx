/**
 * "Compile once, mask every step" (lesson 07.09): the real grammar engine (XGrammar WASM over o200k, in the
 * worker) compiles each schema of a family cold, then generates one valid call under its mask. Compile time
 * against per-step mask time, measured live; points stream in as they are measured.
 */
import { useCallback, useMemo, useState } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame } from '../kit/frameProps';
import { formatNumber } from '../../lib/format';
import type { CostPoint } from '../../worker/grammarMethods';
import '../structured-output/structured-output.css';
import { TryThis, type TryItem } from '../kit/TryThis';

export { GRAMMAR_COST_ID, grammarCostSchema } from './schema';
import { COST_BOUNDS, GRAMMAR_COST_ID, grammarCostSchema } from './schema';
import { O200K_VOCAB_SIZE } from '../../sim/lessons/grammar/vocab';

const ms = (us: number) => us / 1000;

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        With the tool-choice schemas, compare the compile line with the median mask line: they are three to
        four orders of magnitude apart, and only the compile grows with the number of tools.
      </>
    ),
    set: { family: 'tools' },
    highlight: 'compile-in-steps',
  },
  {
    text: (
      <>
        Switch to &quot;maxLength&quot;: the sweep compiles the string with no bound, then bounded at{' '}
        {COST_BOUNDS[0]} to {COST_BOUNDS[COST_BOUNDS.length - 1]} characters. Against the unbounded first
        point, which the read-out shows beside it, the last one&apos;s compile time multiplies, and some mask
        steps slow down too.
      </>
    ),
    set: { family: 'maxLength' },
    highlight: 'compile-last',
  },
  {
    text: (
      <>
        Reload the page and rerun: the compile times move by tens of percent from run to run. The tail, not
        one run, is what a fleet sees.
      </>
    ),
  },
];

export function GrammarCost() {
  const params = useWidgetParams(GRAMMAR_COST_ID, grammarCostSchema);
  const v = params.values;
  const family = v.family === 'maxLength' ? 'maxLength' : 'tools';
  const args = useMemo(() => ({ family: family as 'tools' | 'maxLength' }), [family]);
  const [streamed, setStreamed] = useState<{ family: string; points: CostPoint[] }>({ family, points: [] });
  const onFrame = useCallback(
    (p: CostPoint) =>
      setStreamed((s) =>
        s.family === family ? { family, points: [...s.points, p] } : { family, points: [p] },
      ),
    [family],
  );
  const sim = useSimulation('grammarCostSweep', args, onFrame);
  const r = sim.result && sim.result.family === family ? sim.result : null;
  const points = r ? r.points : streamed.family === family ? streamed.points : [];
  const isTools = family === 'tools';
  const xOf = (p: CostPoint) => p.size;

  const series = useMemo(
    () => [
      { name: 'Compile (once per schema)', points: points.map((p) => ({ x: xOf(p), y: p.compileMs })) },
      {
        name: 'Mask, median step',
        points: points.map((p) => ({ x: xOf(p), y: ms(p.maskP50Us) })),
        dash: '6 3',
      },
      {
        name: 'Mask, slowest step',
        points: points.map((p) => ({ x: xOf(p), y: ms(p.maskMaxUs) })),
        dash: '2 3',
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [points, isTools],
  );
  const last = points.length ? points[points.length - 1] : null;
  const first = points.length ? points[0] : null;
  const status = sim.status === 'error' ? 'error' : r ? 'ready' : 'loading';

  return (
    <WidgetFrame
      {...paramsFrame(params)}
      id={GRAMMAR_COST_ID}
      title="Compile once, mask every step"
      status={status}
      error={sim.error}
      onRetry={sim.retry}
      stale={sim.stale}
      exportData={() => ({ rows: points.map((p) => ({ ...p })), json: { parameters: v, result: r } })}
      readouts={
        last && first ? (
          <>
            <Readout
              emphasis
              label={`Compile, ${last.label}`}
              value={
                <span data-readout="compile-last" data-value={last.compileMs}>
                  {formatNumber(last.compileMs, 3)} ms
                </span>
              }
              formula={`${first.label}: ${formatNumber(first.compileMs, 3)} ms; faster of two cold compiles, no grammar cache`}
            />
            <Readout
              label={`Mask per step, ${last.label}`}
              value={
                <span data-readout="mask-last" data-value={last.maskP50Us}>
                  {formatNumber(last.maskP50Us, 3)} µs median
                </span>
              }
              formula={`slowest step ${formatNumber(ms(last.maskMaxUs), 3)} ms; ${last.steps} steps in the call`}
            />
            <Readout
              label="One compile costs"
              value={
                <span data-readout="compile-in-steps" data-value={(1000 * last.compileMs) / last.maskP50Us}>
                  {formatNumber((1000 * last.compileMs) / last.maskP50Us, 3)} median mask steps
                </span>
              }
              formula="compile time / median mask time"
            />
          </>
        ) : null
      }
      caption={
        <>
          Every point was measured in this browser just now: XGrammar (WebAssembly, in a worker) compiles the
          schema against the {formatNumber(O200K_VOCAB_SIZE, 6)}-token o200k vocabulary with its cache off
          (the faster of two compiles is shown), then one valid call is generated under the mask. Times on a
          log scale; the x axis is{' '}
          {isTools ? 'the number of tools the schema allows' : 'the bound on the string (0 = no bound)'}. Your
          numbers vary with the machine and what else it is doing.
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {points.length ? (
        <>
          <LineChart
            title="Compile time and per-step mask time against schema size"
            description="Measured compile time of each schema and the median and slowest per-step mask time of one call, log scales."
            series={series}
            x={{
              label: isTools ? 'Tools in the schema' : 'maxLength bound (0 = none)',
              scale: isTools ? 'log' : 'linear',
              format: (n) => formatNumber(n),
            }}
            y={{ label: 'Time', unit: 'ms', scale: 'log', format: (t) => formatNumber(t, 2) }}
            points
          />
          <div className="table-scroll so-table-scroll">
            <table className="ruled-table" data-figure="cost-table">
              <thead>
                <tr>
                  <th scope="col">Schema</th>
                  <th scope="col" className="col-detail">
                    Chars
                  </th>
                  <th scope="col">Compile</th>
                  <th scope="col">Mask median</th>
                  <th scope="col">Mask slowest</th>
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.label} data-size={p.size}>
                    <th scope="row">{p.label}</th>
                    <td className="col-detail">{formatNumber(p.schemaChars)}</td>
                    <td data-cell="compile-ms" data-value={p.compileMs}>
                      {formatNumber(p.compileMs, 3)} ms
                    </td>
                    <td data-cell="mask-p50-us" data-value={p.maskP50Us}>
                      {formatNumber(p.maskP50Us, 3)} µs
                    </td>
                    <td data-cell="mask-max-us" data-value={p.maskMaxUs}>
                      {formatNumber(ms(p.maskMaxUs), 3)} ms
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p className="so-note" aria-live="polite">
          Loading the grammar engine and the {formatNumber(O200K_VOCAB_SIZE, 6)}-token vocabulary, then
          compiling…
        </p>
      )}
    </WidgetFrame>
  );
}
