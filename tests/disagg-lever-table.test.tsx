import { describe, expect, it } from 'vitest';
import { DisaggLeverTable } from '../src/widgets/agents-per-mw/DisaggLever';
import { renderFirstState } from './renderFirstState';

describe('07.12 disaggregation lever table', () => {
  it('says it is simulating while its runs wait for the widgets, rather than showing an empty table', () => {
    const html = renderFirstState(<DisaggLeverTable />);
    expect(html).toContain('data-state="loading"');
    expect(html).toMatch(/<td colSpan="8" class="pending" aria-busy="true">Simulating both layouts/i);
    expect(html).not.toMatch(/data-row="/);
  });
});
