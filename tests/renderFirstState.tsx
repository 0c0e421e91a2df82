/**
 * A component's first render, as the server renders it: no effect runs, so no call can reach the worker yet; a
 * simulation client that throws on any call proves it. What a table or figure shows while its runs are pending.
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ServicesProvider, type Services } from '../src/app/services';

export function renderFirstState(node: ReactNode): string {
  const sim = new Proxy(
    {},
    {
      get: () => () => {
        throw new Error('no worker call expected');
      },
    },
  );
  return renderToStaticMarkup(
    <ServicesProvider services={{ sim } as unknown as Services}>{node}</ServicesProvider>,
  );
}
