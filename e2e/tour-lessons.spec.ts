/**
 * Guided tours of lessons 07.01–07.03, 07.05, 07.06 and 07.10–07.12: the tour is there, lasts 5–10 minutes, and a
 * step that plays a widget's "Try this" item sets the item's parameters and highlights its read-out (and, for an
 * animated widget, puts its playhead at the item's time). 07.04's tour: tour.spec.ts; 07.07–07.09: tour-lessons-b.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, gotoLessonReady, test } from './fixtures';

interface Case {
  lesson: string;
  path: string;
  widgets: number;
  /** The tour step (0-based) that plays a Try this item, the widget, words of its caption, what it sets. */
  step: number;
  widget: string;
  words: string;
  url: RegExp;
  control?: { label: string | RegExp; value: string };
  highlight: string;
  /** For an animated widget: what its playback scrubber reads once the step has put the playhead at its time. */
  playhead?: RegExp;
}

const CASES: Case[] = [
  {
    lesson: '07.01',
    path: '/lessons/07-01-the-agent-workload',
    widgets: 2,
    step: 5,
    widget: 'trajectory-anatomy',
    words: 'Set the tool latency to Human approval',
    url: /trajectory-anatomy\.toolLatency=human/,
    control: { label: 'Tool latency (agent)', value: 'human' },
    highlight: 'wall-time',
  },
  {
    lesson: '07.05',
    path: '/lessons/07-05-kv-offload-and-reload',
    widgets: 2,
    step: 7,
    widget: 'reload-or-recompute',
    words: 'Raise the GPUs per replica from 8 to 16',
    url: /reload-or-recompute\.gpus=16/,
    highlight: 'recompute-time',
  },
  {
    lesson: '07.06',
    path: '/lessons/07-06-tool-calls-in-the-loop',
    widgets: 2,
    step: 6,
    widget: 'tool-latency',
    words: 'Switch “when the TTL runs out” to offload',
    url: /tool-latency\.after=offload/,
    control: { label: 'When the TTL runs out', value: 'offload' },
    highlight: 'optimal-ttl',
  },
  {
    lesson: '07.11',
    path: '/lessons/07-11-context-compaction',
    widgets: 2,
    step: 5,
    widget: 'edit-the-prompt',
    words: 'Pick Change one token at position 10',
    url: /edit-the-prompt\.[^#]*tokenPosition=10(&|$)/,
    control: { label: 'Edit', value: 'token' },
    highlight: 'hit-tokens',
  },
  {
    lesson: '07.02',
    path: '/lessons/07-02-session-affinity',
    widgets: 2,
    step: 7,
    widget: 'affinity-replay',
    words: 'With affinity off, raise the replicas from 4 to 16',
    url: /affinity-replay\.[^#]*replicas=16(&|$)/,
    highlight: 'cold-extra',
    playhead: /^turn 15 of/,
  },
  {
    lesson: '07.03',
    path: '/lessons/07-03-cache-aware-routing',
    widgets: 3,
    step: 12,
    widget: 'cache-router',
    words: 'Then 0: only the relative test is left',
    url: /cache-router\.[^#]*loadThreshold=0(&|$)/,
    highlight: 'hit-rate',
  },
  {
    lesson: '07.10',
    path: '/lessons/07-10-long-context-prefill',
    widgets: 3,
    step: 4,
    widget: 'chunked-prefill-timeline',
    words: 'Raise the chunk from 512 to 8,192 tokens',
    url: /chunked-prefill-timeline\.[^#]*chunk=8192(&|$)/,
    highlight: 'max-gap',
  },
  {
    lesson: '07.12',
    path: '/lessons/07-12-agents-per-megawatt',
    widgets: 2,
    step: 4,
    widget: 'slo-sweep',
    words: 'Tighten TPOT to 30 ms instead',
    url: /slo-sweep\.[^#]*tpotP90S=0\.03(&|$)/,
    highlight: 'agents-per-replica',
  },
];

/** "Step 3 of 11 · 0:40 / 7:05" → 425 (the tour's total, in seconds). */
async function totalSeconds(bar: Locator): Promise<number> {
  const text = (await bar.textContent()) ?? '';
  const m = /\/\s*(\d+):(\d\d)/.exec(text);
  expect(m, `no total in “${text}”`).not.toBeNull();
  return Number(m![1]) * 60 + Number(m![2]);
}

async function checkTour(page: Page, c: Case) {
  await gotoLessonReady(page, c.path, c.widgets);
  const tour = page.locator(`[data-tour="${c.lesson}"]`);
  await expect(tour).toHaveCount(1);
  const steps = tour.locator('[data-tour-step]');
  expect(await steps.count()).toBeGreaterThanOrEqual(8);
  const step = steps.nth(c.step);
  // The step plays the widget's own Try this item: its words are the caption.
  await expect(step).toContainText(c.words);
  await expect(
    page.locator(`[data-widget="${c.widget}"] [data-try]`).filter({ hasText: c.words }),
  ).toHaveCount(1);
  await step.getByRole('button').click();
  const bar = page.getByRole('region', { name: 'Tour step' });
  await expect(bar).toContainText(c.words);
  const total = await totalSeconds(bar);
  expect(total).toBeGreaterThanOrEqual(5 * 60);
  expect(total).toBeLessThanOrEqual(10 * 60);
  await expect(page).toHaveURL(c.url);
  const widget = page.locator(`[data-widget="${c.widget}"]`);
  if (c.control)
    await expect(widget.getByLabel(c.control.label, { exact: true })).toHaveValue(c.control.value);
  await expect(widget.locator(`[data-readout="${c.highlight}"]`)).toHaveAttribute('data-tour-highlight', '');
  if (c.playhead)
    await expect(widget.getByRole('group', { name: 'Playback' }).getByRole('slider')).toHaveAttribute(
      'aria-valuetext',
      c.playhead,
    );
  await expect(step).toHaveAttribute('aria-current', 'step');
}

test.describe('lesson tours', () => {
  for (const c of CASES)
    test(`${c.lesson}: a 5–10 minute tour whose Try this step sets its parameter and highlights its read-out`, async ({
      page,
      watch,
    }) => {
      await checkTour(page, c);
      expect(watch.consoleErrors).toEqual([]);
    });
});
