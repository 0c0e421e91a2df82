/**
 * The tool schema tax (lesson 07.07): pick how many of the shipped tools a request carries (or paste your own
 * definitions), see each definition's tokens with a real tokenizer (o200k_base, in the worker), the block's
 * total per request, and over a session the tokens prefilled and the dollars paid with and without a prefix
 * cache (cache-write and cache-read multipliers). Method toolSchemaTax.
 */
import { useId, useMemo, useState } from 'react';
import { BarChart, LineChart, type LineSeries } from '../kit/charts';
import { ParamControls } from '../kit/controls/ParamControls';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame } from '../kit/frameProps';
import {
  formatCount,
  formatDuration,
  formatMoney,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../../lib/format';
import { CACHE_READ, CACHE_WRITE, money, TAX_ID, taxArgs, taxSchema } from './schema';
import { TaxFig } from './figures';
import './tool-schema.css';
import { TryThis, type TryItem } from '../kit/TryThis';

const EXAMPLE = `[
  {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "input_schema": {
      "type": "object",
      "properties": { "city": { "type": "string", "description": "City name" } },
      "required": ["city"]
    }
  }
]`;

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Slide the tools from <TaxFig m="count" /> down to 5 and back: every tool adds its tokens to{' '}
        <em>every</em> request, from <TaxFig m="minTool" /> to <TaxFig m="maxTool" />. The largest are the
        ones with long descriptions and many arguments (grep, run_command).
      </>
    ),
    set: { toolCount: 5 },
    highlight: 'tool-tokens',
  },
  {
    text: (
      <>
        Tick <em>Pretty-printed JSON</em>: the same definitions cost more than half again as many tokens,
        because indentation and newlines are tokens too.
      </>
    ),
    set: { pretty: true },
    highlight: 'tool-tokens',
  },
  {
    text: (
      <>
        Set <em>Tool block changes every</em> to 1: each turn now pays a {CACHE_WRITE['5m']}× cache write, and
        the cache costs more than no cache at all. At 5 it still saves most of the bill.
      </>
    ),
    set: { changeEvery: 1 },
    highlight: 'saving',
  },
  {
    text: (
      <>
        Paste your own agent&apos;s tool list (or break the JSON on purpose to see where the error is
        reported).
      </>
    ),
  },
];

export function ToolSchemaTax() {
  const params = useWidgetParams(TAX_ID, taxSchema);
  const v = params.values;
  const [draft, setDraft] = useState('');
  const [custom, setCustom] = useState<string | null>(null);
  const pasteId = useId();
  const args = useMemo(() => taxArgs(v, custom), [v, custom]);
  const sim = useSimulation('toolSchemaTax', args);
  const r = sim.result;
  const s = r?.session;
  const usingCustom = r?.source === 'custom';
  const pasteError = custom !== null ? r?.customError : null;

  const bars = useMemo(() => (r ? [...r.tools].sort((a, b) => b.tokens - a.tokens) : []), [r]);
  const cumulative: LineSeries[] = useMemo(
    () =>
      r
        ? [
            {
              name: 'No prefix cache: prefilled every turn',
              points: r.series.map((p) => ({ x: p.turn, y: p.prefilledNoCache })),
            },
            {
              name: 'Prefix cache: prefilled on a write only',
              points: r.series.map((p) => ({ x: p.turn, y: p.prefilledCached })),
            },
          ]
        : [],
    [r],
  );
  const controlKeys = (Object.keys(taxSchema) as (keyof typeof taxSchema)[]).filter(
    (k) => !(usingCustom && k === 'toolCount'),
  );
  const w = args.writeMultiplier;

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      id={TAX_ID}
      title="The tool schema tax"
      fixFields={{ modelId: 'model' }}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        setCustom(null);
        setDraft('');
      }}
      controls={
        <>
          <ParamControls params={params} only={controlKeys} />
          <div className="control schema-paste">
            <label htmlFor={pasteId} className="control-label">
              Your own tool definitions <span className="control-unit">(JSON)</span>
            </label>
            <textarea
              id={pasteId}
              rows={6}
              spellCheck={false}
              value={draft}
              placeholder={EXAMPLE}
              aria-describedby={pasteError ? `${pasteId}-err` : undefined}
              aria-invalid={pasteError ? true : undefined}
              onChange={(e) => setDraft(e.currentTarget.value)}
            />
            <div className="schema-paste-buttons">
              <button type="button" onClick={() => setCustom(draft)}>
                Count these
              </button>
              <button type="button" onClick={() => setDraft(EXAMPLE)}>
                Example
              </button>
              {custom !== null ? (
                <button
                  type="button"
                  onClick={() => {
                    setCustom(null);
                  }}
                >
                  Use the shipped tools
                </button>
              ) : null}
            </div>
            {pasteError ? (
              <p
                id={`${pasteId}-err`}
                className="schema-paste-error"
                role="alert"
                data-paste-error={pasteError.line ?? ''}
              >
                {pasteError.message} The shipped tools are counted instead.
              </p>
            ) : usingCustom ? (
              <p className="schema-paste-ok" role="status">
                Counting your {r?.tools.length} tool{r?.tools.length === 1 ? '' : 's'}.
              </p>
            ) : (
              <p className="control-value">
                An array of tools, OpenAI or Anthropic shape; counted in the format chosen above.
              </p>
            )}
          </div>
        </>
      }
      exportData={() => ({
        rows: r
          ? r.tools.map((t) => ({ tool: t.name, group: t.group, tokens: t.tokens, characters: t.chars }))
          : [],
        json: { parameters: v, custom, result: r },
      })}
      readouts={
        r && s ? (
          <>
            <Readout
              emphasis
              label="Tool tokens on every request"
              value={
                <span data-readout="tool-tokens" data-value={r.toolTokens}>
                  {formatNumber(r.toolTokens, 6)} tokens
                </span>
              }
              formula={`Σ of ${r.tools.length} definitions, o200k_base; ${formatNumber(r.toolChars, 6)} characters = ${r.toolTokens > 0 ? formatNumber(r.toolChars / r.toolTokens) : '—'} characters per token`}
            />
            <Readout
              label="Prefill of the block alone"
              value={formatDuration(r.prefillSeconds)}
              formula={`${r.modelName} on ${v.gpus} × ${r.acceleratorName}, from scratch (cost.ts roofline)`}
            />
            <Readout
              label={`Tool tokens prefilled in ${s.turns} turns, cache vs none`}
              value={
                <span data-readout="prefilled-cached" data-value={s.prefilledCached}>
                  {formatCount(s.prefilledCached)} vs {formatCount(s.prefilledNoCache)}
                </span>
              }
              formula={`cache: ${s.writes} write${s.writes === 1 ? '' : 's'} × ${formatNumber(s.toolTokens, 6)}; none: ${s.turns} × ${formatNumber(s.toolTokens, 6)}`}
            />
            <Readout
              label="Tool-block cost, no cache"
              value={money(s.costNoCache)}
              formula={`${s.turns} × ${formatNumber(s.toolTokens, 6)} × ${formatMoney(v.inputPerMTok)}/M`}
            />
            <Readout
              emphasis
              label="Tool-block cost, prefix cache"
              value={
                <span data-readout="cost-cached" data-value={s.costCached}>
                  {money(s.costCached)}
                </span>
              }
              formula={`${formatNumber(s.toolTokens, 6)} × ${formatMoney(v.inputPerMTok)}/M × (${w} × ${s.writes} writes + ${CACHE_READ} × ${s.reads} reads)`}
            />
            <Readout
              label="The cache saves"
              value={
                <span data-readout="saving" data-value={s.saving}>
                  {s.saving >= 0 ? formatPercent(s.saving) : `−${formatPercent(-s.saving)} (costs more)`}
                </span>
              }
              formula={`1 − cached / uncached; ${
                s.costCached <= 0
                  ? '—'
                  : s.costNoCache >= s.costCached
                    ? `${formatRatio(s.costNoCache / s.costCached)} cheaper`
                    : `${formatRatio(s.costCached / s.costNoCache)} dearer: every turn writes the cache again`
              }`}
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            Top: tokens of each definition, largest first (down one column, then the next where there are
            two), as the request&apos;s JSON carries it ({v.format === 'openai' ? 'OpenAI' : 'Anthropic'}{' '}
            shape, {v.pretty ? 'pretty-printed' : 'compact'}
            ), counted with o200k_base (the GPT-4o tokenizer; other models&apos; tokenizers differ by a few
            percent, and a provider may wrap the block in its own template, which this count leaves out).
            Bottom: the tool block&apos;s tokens prefilled so far (cumulative), turn by turn; with a cache it
            is prefilled only when written
            {v.changeEvery > 0 ? `, on turn 1 and every ${v.changeEvery} turns after` : ', on turn 1'}.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <div className="schema-charts">
        <BarChart
          title="Tokens of each tool definition"
          description="Horizontal bars, one per tool, largest first: tokens of its JSON definition with the o200k_base tokenizer."
          categories={bars.map((t) => t.name)}
          series={[{ name: 'Tokens', values: bars.map((t) => t.tokens) }]}
          orientation="horizontal"
          value={{ label: 'Tokens of the definition', format: (x) => formatCount(x) }}
          category={{ label: 'Tool' }}
          legend={false}
          // 12.8 units a row names every tool (BarChart thins labels closer than 12.65), at any zoom; two
          // columns where the width allows keep 36 tools and the read-outs on one screen, projected too (at the
          // charts' projected zoom a column is 310 units: 125 of labels, 130 of bars).
          rowHeight={12.8}
          maxColumns={2}
          minColumnPlot={120}
          maxLabelShare={0.42}
          emptyMessage="No tools in the request: slide the count up"
        />
        <LineChart
          title="Tool-block tokens prefilled over the session"
          description="Cumulative tokens of the tool block prefilled by the end of each turn, without and with a prefix cache."
          series={cumulative}
          x={{ label: 'Turn', format: (t) => formatNumber(t) }}
          y={{ label: 'Tool tokens prefilled', format: (x) => formatCount(x), zero: true }}
          curve="step-after"
          points={false}
          aspect={0.42}
        />
      </div>
    </WidgetFrame>
  );
}
