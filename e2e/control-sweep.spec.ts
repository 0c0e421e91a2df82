/**
 * The control sweep: every control of every widget at its default, at its minimum, at its maximum and between (all
 * of a lesson's controls at once, through the URL as a shared link would set them). Whatever the setting, no widget
 * stays busy, no figure on screen is NaN, Infinity, undefined or in e-notation, and an error speaks the reader's
 * words.
 */
import type { Page } from '@playwright/test';
import { LESSONS } from '../src/app/lessons';
import { expect, test } from './fixtures';

type Extreme = 'min' | 'max' | 'mid';

interface Control {
  widget: string;
  param: string;
  kind: 'number' | 'select' | 'toggle';
  min?: number;
  max?: number;
  integer?: boolean;
  options?: string[];
}

async function readControls(page: Page): Promise<Control[]> {
  return page.evaluate(() => {
    const out: Control[] = [];
    for (const w of Array.from(document.querySelectorAll<HTMLElement>('[data-widget]'))) {
      const widget = w.dataset.widget!;
      for (const c of Array.from(w.querySelectorAll<HTMLElement>('[data-param]'))) {
        const param = c.dataset.param!;
        const num = c.querySelector<HTMLInputElement>('input[type="number"]');
        const select = c.querySelector<HTMLSelectElement>('select');
        const box = c.querySelector<HTMLInputElement>('input[type="checkbox"]');
        if (c.classList.contains('control-seed')) continue;
        if (num)
          out.push({
            widget,
            param,
            kind: 'number',
            min: Number(num.min),
            max: Number(num.max),
            integer: num.step === '1',
          });
        else if (select)
          out.push({
            widget,
            param,
            kind: 'select',
            options: Array.from(select.options).map((o) => o.value),
          });
        else if (box) out.push({ widget, param, kind: 'toggle' });
      }
    }
    return out;
  });
}

function valueAt(c: Control, at: Extreme): string {
  if (c.kind === 'toggle') return at === 'max' ? 'true' : 'false';
  if (c.kind === 'select') {
    const o = c.options!;
    return at === 'min' ? o[0] : at === 'max' ? o[o.length - 1] : o[Math.floor(o.length / 2)];
  }
  const { min, max } = c as Required<Control>;
  let v = at === 'min' ? min : at === 'max' ? max : min > 0 ? Math.sqrt(min * max) : (min + max) / 2;
  if (c.integer) v = Math.round(v);
  return String(Number(v.toPrecision(6)));
}

/** Text on screen that would mean a figure escaped the formatting module. */
const BAD_FIGURE = /\bNaN\b|\bInfinity\b|\bundefined\b|\d(\.\d+)?e[+-]?\d+\b/;
/** Internal wording that must never reach a reader: parameter identifiers in a refusal, stack traces. */
const INTERNAL = /must be a whole number from|Maximum call stack|\n\s+at \w|TypeError|ReferenceError/;

for (const lesson of LESSONS) {
  test(`lesson ${lesson.number}: every control at its default, minimum, maximum and between`, async ({
    page,
    watch,
  }) => {
    test.setTimeout(240_000);
    const path = `/lessons/${lesson.slug}`;
    await page.goto(path);
    await expect(page.locator('[data-widget]').first()).toBeAttached();
    const controls = await readControls(page);
    if (controls.length === 0) return;
    // The defaults first: what every reader sees before touching anything.
    for (const at of ['default', 'min', 'max', 'mid'] as const) {
      const query =
        at === 'default'
          ? ''
          : controls.map((c) => `${c.widget}.${c.param}=${encodeURIComponent(valueAt(c, at))}`).join('&');
      await page.goto(query ? `${path}?${query}` : path);
      const widgets = page.locator('[data-widget]');
      await expect(widgets.first()).toBeAttached();
      const n = await widgets.count();
      for (let i = 0; i < n; i++)
        await expect(widgets.nth(i), `${at}: a widget stayed busy`).not.toHaveAttribute(
          'data-state',
          'loading',
          {
            timeout: 90_000,
          },
        );
      const text = await page.locator('main').innerText();
      const bad = text.match(BAD_FIGURE);
      expect(
        bad,
        `${at}: "${bad?.[0]}" on screen near "${bad ? text.slice(Math.max(0, bad.index! - 60), bad.index! + 40) : ''}"`,
      ).toBeNull();
      for (let i = 0; i < n; i++) {
        const w = widgets.nth(i);
        if ((await w.getAttribute('data-state')) !== 'error') continue;
        const message = await w.locator('.widget-error').innerText();
        expect(message, `${at}: ${await w.getAttribute('data-widget')} speaks internal words`).not.toMatch(
          INTERNAL,
        );
      }
    }
    expect(watch.consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
}
