/**
 * `npm run bench -- animations`: the course's animations in headless Chromium, measured as pictures the widget
 * actually drew (its canvas's data-frame counter, bumped once per drawn picture) per second while its transport
 * plays. The hierarchy animation (07.04) is set to a run with more than 5,000 page copies on screen (Llama 3.1 8B,
 * 32 sessions, 120 GB of DRAM) and played from 150 s of simulated time; the line gives the fewest marks drawn in
 * the window and the rate. Goal (issue 10): ≥ 50 fps with 5,000 blocks. The mask animation (07.08: the grammar's
 * mask falling on the logits, bars re-laid out at every frame) is played from its first step. Printed, not asserted.
 */
import { LESSONS } from '../../src/app/lessons';
import { benchPage, openSite, type Site } from '../browser/site';
import { drawnFps } from '../browser/frameRate';
import type { BenchSuite } from './index';

const HIERARCHY_QUERY = new URLSearchParams({
  'kv-hierarchy.modelId': 'llama-3.1-8b',
  'kv-hierarchy.sessions': '32',
  'kv-hierarchy.hbmGB': '40',
  'kv-hierarchy.dramGB': '120',
}).toString();
const START_S = 150;
const WINDOW_MS = 3_000;

/** 07.08's mask-logits widget: pause its autoplay, rewind, play, count the bar tables drawn. */
async function maskAnimationFps(site: Site) {
  const lesson = LESSONS.find((l) => l.number === '07.08');
  if (!lesson) throw new Error('lesson 07.08 is not in the catalogue');
  const page = await benchPage(site, { width: 1280, height: 900 });
  try {
    await page.goto(`${site.base}/lessons/${lesson.slug}`);
    const widget = page.locator('[data-widget="mask-logits"]');
    await widget.scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-widget="mask-logits"][data-state="ready"]', { timeout: 120_000 });
    await widget.locator('[data-figure="mask-picture"]').waitFor();
    const pause = widget.getByRole('button', { name: 'Pause' });
    if ((await pause.count()) > 0) await pause.click();
    await widget.locator('input.transport-scrub').fill('0');
    return await drawnFps(widget, '[data-figure="mask-picture"]', WINDOW_MS);
  } finally {
    await page.close();
  }
}

export const animationsSuite: BenchSuite = {
  name: 'animations',
  description: 'pictures drawn per second by the animated widgets while they play (headless Chromium)',
  async run() {
    const lesson = LESSONS.find((l) => l.number === '07.04');
    if (!lesson) throw new Error('lesson 07.04 is not in the catalogue');
    const site = await openSite();
    try {
      const page = await benchPage(site, { width: 1280, height: 900 });
      await page.goto(`${site.base}/lessons/${lesson.slug}?${HIERARCHY_QUERY}`);
      const widget = page.locator('[data-widget="kv-hierarchy"]');
      await widget.scrollIntoViewIfNeeded();
      await page.waitForSelector('[data-widget="kv-hierarchy"][data-state="ready"]', { timeout: 120_000 });
      const canvas = widget.locator('canvas.kvh-canvas');
      await canvas.waitFor();
      // Pause (it autoplays), seek to where the run has more than 5,000 copies, then play.
      const pause = widget.getByRole('button', { name: 'Pause' });
      if ((await pause.count()) > 0) await pause.click();
      await widget.locator('input.transport-scrub').fill(String(START_S));
      await widget.getByRole('button', { name: 'Play' }).click();
      const { fps, minMarks } = await drawnFps(widget, 'canvas.kvh-canvas', WINDOW_MS);
      console.log(`hierarchy animation: ${minMarks} blocks, ${fps.toFixed(0)} fps`);
      await page.close();

      const mask = await maskAnimationFps(site);
      console.log(
        `mask animation: ${mask.marks.toFixed(0)} bars, ${mask.fps.toFixed(0)} fps (goal ≥ 50 fps: ${mask.fps >= 50 ? 'meets' : 'MISSES'})`,
      );
    } finally {
      await site.close();
    }
  },
};
