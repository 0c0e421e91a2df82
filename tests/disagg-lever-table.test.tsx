import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { DisaggLeverTable } from '../src/widgets/agents-per-mw/DisaggLever';
import { ServicesProvider, type Services } from '../src/app/services';

describe('07.12 disaggregation lever table', () => {
  it('says it is simulating while its runs wait for the widgets, rather than showing an empty table', () => {
    // Server rendering runs no effects, so the table is in its first state: no runs yet.
    // No call reaches the worker before an effect runs; a client that throws would say so.
    const sim = new Proxy(
      {},
      {
        get: () => () => {
          throw new Error('no worker call expected');
        },
      },
    );
    const html = renderToStaticMarkup(
      <ServicesProvider services={{ sim } as unknown as Services}>
        <DisaggLeverTable />
      </ServicesProvider>,
    );
    expect(html).toContain('data-state="loading"');
    expect(html).toMatch(/<td colSpan="8" class="pending" aria-busy="true">Simulating both layouts/i);
    expect(html).not.toMatch(/data-row="/);
  });
});
