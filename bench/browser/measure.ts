/** What the browser benches measure on a page: one slider step to repaint, long tasks while dragging. */
import type { Locator, Page } from '@playwright/test';

/** Start collecting long main-thread tasks (PerformanceObserver 'longtask'); read with `longestTaskMs`. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

export async function longestTaskMs(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __longest: number }).__longest);
}

/**
 * The slider a bench steps on each widget, where the first one would not change the picture: at its end, or a
 * setting the default state ignores (the animated router's load threshold applies to cache-aware routing, and
 * the router starts on round-robin). Any other widget uses its first slider.
 */
export const BENCH_SLIDERS: Readonly<Record<string, string>> = {
  'cache-router': 'sessionsPerS',
  'tool-schema-tax': 'turns',
  'tool-block-layout': 'systemTokens',
};

/** The widget's slider the benches move: its BENCH_SLIDERS entry, else the first slider of its controls. */
export function benchSlider(widget: Locator, id: string): Locator {
  const name = BENCH_SLIDERS[id];
  const inControls = widget.locator('.widget-controls input[type="range"]');
  return (name ? widget.locator(`[data-param="${name}"] input[type="range"]`) : inControls).first();
}

export interface Repaint {
  /** Press → the first repaint that shows a newly computed result for the new value (data-drawn changed). */
  firstMs: number;
  /** Press → the complete result drawn (data-drawn changed with the widget no longer busy). */
  completeMs: number;
  /** Why there is no figure (NaN above): what the widget looked like when the wait ended. */
  why?: string;
}

/**
 * One step of the widget's bench slider (ArrowRight, or ArrowLeft at its maximum), timed in the page from the
 * key press to the repaints it causes. A repaint is a change of the frame's data-drawn counter (WidgetFrame:
 * it grows each time the picture shows a newly computed result for the current settings), until the frame that
 * shows the change has been painted (the task after its animation frame's rendering). Progressive widgets draw a first part before the rest: `firstMs` times the
 * first drawing, `completeMs` the one after which the widget is no longer busy (aria-busy cleared, data-state
 * ready). Both equal for a widget that draws its result at once.
 */
export async function sliderRepaint(widget: Locator, slider: Locator, timeoutMs = 10_000): Promise<Repaint> {
  await slider.focus();
  const atMax = await slider.evaluate((el) => {
    const i = el as HTMLInputElement;
    return Number(i.value) >= Number(i.max);
  });
  // Arm in the page first (the observer and the values before), then press, then wait for the outcome.
  await widget.evaluate(
    (root, { timeout, input }) => {
      const slider = root.querySelector<HTMLInputElement>(input);
      const valueBefore = slider?.value ?? null;
      const drawnBefore = root.getAttribute('data-drawn');
      // A build from before data-drawn existed: time as the bench then did, from the press until anything in
      // the widget changed and it was idle again (complete only; a first repaint cannot be told apart).
      const legacy = drawnBefore === null;
      (window as unknown as { __repaint: Promise<Repaint> }).__repaint = new Promise<Repaint>((resolve) => {
        // Timed from the key's arrival, not from arming: the press is sent after this evaluate returns.
        let t0 = performance.now();
        slider?.addEventListener(
          'keydown',
          (e) => {
            t0 = e.timeStamp;
          },
          { once: true, capture: true },
        );
        let first = NaN;
        let seen = drawnBefore;
        let completing = false;
        // Painted: the next animation frame's rendering (style, layout, paint) has run once a task queued from
        // its requestAnimationFrame callback runs (a MessageChannel message, not clamped like setTimeout). A
        // second requestAnimationFrame, as this bench did before, waited one frame more than the paint.
        const painted = (then: (t: number) => void) =>
          requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => then(performance.now() - t0);
            ch.port2.postMessage(null);
          });
        const idle = () => !root.getAttribute('aria-busy') && root.getAttribute('data-state') === 'ready';
        const finish = (r: Repaint) => {
          obs.disconnect();
          clearTimeout(timer);
          resolve(r);
        };
        let mutated = false;
        const check = () => {
          if (legacy) {
            mutated = true;
            if (idle() && !completing) {
              completing = true;
              painted((t) => finish({ firstMs: NaN, completeMs: t }));
            }
            return;
          }
          const drawn = root.getAttribute('data-drawn');
          if (drawn !== seen && Number.isNaN(first)) {
            first = -1;
            painted((t) => {
              first = t;
            });
          }
          seen = drawn;
          // Complete: something new was drawn and the widget is no longer busy.
          if (!Number.isNaN(first) && idle() && !completing) {
            completing = true;
            painted((t) => finish({ firstMs: first >= 0 ? first : t, completeMs: t }));
          }
        };
        const obs = new MutationObserver(check);
        if (legacy)
          obs.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
        else
          obs.observe(root, { attributes: true, attributeFilter: ['data-drawn', 'aria-busy', 'data-state'] });
        const timer = setTimeout(() => {
          obs.disconnect();
          const moved = slider ? slider.value !== valueBefore : false;
          const state = root.getAttribute('data-state');
          const why = !slider
            ? 'no slider found'
            : !moved
              ? `the slider did not move (value ${valueBefore}, range ${slider.min}–${slider.max})`
              : state === 'error'
                ? `the widget shows an error: ${root.querySelector('.widget-error')?.textContent?.trim().slice(0, 120) ?? ''}`
                : root.getAttribute('aria-busy')
                  ? `still computing after ${timeout / 1000} s`
                  : (legacy ? !mutated : root.getAttribute('data-drawn') === drawnBefore)
                    ? 'the slider moved but the widget drew no new result (data-drawn unchanged)'
                    : 'drawn, but not painted in time';
          resolve({ firstMs: first >= 0 ? first : NaN, completeMs: NaN, why });
        }, timeout);
      });
    },
    { timeout: timeoutMs, input: await sliderSelector(slider) },
  );
  await slider.press(atMax ? 'ArrowLeft' : 'ArrowRight');
  return widget.evaluate(() => (window as unknown as { __repaint: Promise<Repaint> }).__repaint);
}

/** A selector for the slider inside its widget (its control's data-param), for code running in the page. */
async function sliderSelector(slider: Locator): Promise<string> {
  const param = await slider.evaluate((el) => el.closest('[data-param]')?.getAttribute('data-param') ?? null);
  return param ? `[data-param="${param}"] input[type="range"]` : '.widget-controls input[type="range"]';
}

/** Drag a slider across its track in `steps` moves over `durationMs` (a hand at normal speed). */
export async function dragSlider(page: Page, slider: Locator, steps = 20, durationMs = 1_000): Promise<void> {
  const box = await slider.boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 2, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / steps, y);
    await page.waitForTimeout(durationMs / steps);
  }
  await page.mouse.up();
}
