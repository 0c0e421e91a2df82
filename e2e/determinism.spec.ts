/**
 * The core is deterministic across runtimes: the same scenario and seed give byte-identical metrics in Node
 * (this test's process) and in the browser's simulation worker.
 */
import { readFileSync } from 'node:fs';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import { expect, test, waitForDebugHandles } from './fixtures';

for (const file of ['scenarios/routers/8x-cache-aware.json', 'scenarios/chat-vs-agent-1-replica.json']) {
  test(`${file}: the worker in Chromium reproduces the Node run byte for byte`, async ({ page }) => {
    const scenario = JSON.parse(readFileSync(file, 'utf8'));
    const inNode = JSON.stringify(runScenarioSync(scenario, { includeSeries: false }).metrics);
    await page.goto('/');
    await waitForDebugHandles(page);
    const inBrowser = await page.evaluate(async (sc) => {
      const debug = (
        window as unknown as { __salDebug: { call(m: string, a: unknown): Promise<{ metrics: unknown }> } }
      ).__salDebug;
      const r = await debug.call('runFleet', { scenario: sc, includeSeries: false });
      return JSON.stringify(r.metrics);
    }, scenario);
    expect(inBrowser.length).toBeGreaterThan(1000);
    expect(inBrowser).toBe(inNode);
  });
}
