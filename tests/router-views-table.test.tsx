import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ROUTER_VIEW_ROWS, RouterViewsTable } from '../src/widgets/agents-per-mw/RouterViewsTable';
import { ECON_ALL_ROUTERS } from '../src/sim/lessons/economicsLabSetup';
import { renderFirstState } from './renderFirstState';

describe('07.12 what the router knows, as a table', () => {
  it('has a row for every router the lesson runs, in the prose’s order, each saying what its prefix score reads', () => {
    expect(ROUTER_VIEW_ROWS.map((r) => r.router)).toEqual([...ECON_ALL_ROUTERS]);
    const reads = Object.fromEntries(ROUTER_VIEW_ROWS.map((r) => [r.router, r.reads]));
    expect(reads['llm-d-approximate']).toMatch(/first 131,072 tokens/);
    expect(reads['llm-d-approximate-2025']).toMatch(/first 4,096 tokens/);
    expect(reads['llm-d-approximate-2025-messages']).toMatch(/tool schemas left out/);
    // The lesson shows it right after the paragraph it tabulates.
    const prose = readFileSync(new URL('../lessons/07-12-agents-per-megawatt.mdx', import.meta.url), 'utf8');
    expect(prose.indexOf('<RouterViewsTable />')).toBeGreaterThan(
      prose.indexOf('**What the router knows.**'),
    );
    expect(prose.indexOf('<RouterViewsTable />')).toBeLessThan(prose.indexOf('**Idle-KV policy.**'));
  });

  it('keeps its five rows, computing, until their runs are in (no worker call before an effect)', () => {
    const html = renderFirstState(<RouterViewsTable />);
    expect(html.match(/<tr data-row="/g)).toHaveLength(5);
    expect(html.match(/aria-busy="true">computing…/g)).toHaveLength(5);
    expect(html).toContain('DGX H100');
  });
});
