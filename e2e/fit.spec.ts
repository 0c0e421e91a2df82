import { expect, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';
import { WIDGETS } from '../src/widgets/registry';

/**
 * Every widget opened alone on each of SCREENS (below): laptops, presentation mode on a 1920 × 1080 screen (1.5×
 * type, charts 2.25×) and on 1280 × 800 and 1280 × 720 projectors (reading-size type, charts 1.5×), and a phone,
 * checked for
 *  - its picture and key read-outs on one screen (#11): its first chart or canvas and its read-out row end inside
 *    the window;
 *  - its drawings legible: no SVG text outside its SVG (cut off) or over another text, and every bar of a bar chart
 *    named (a category label thinned out because the bars run too close, at reading size or zoomed, leaves a bar
 *    nobody can name);
 *  - (at 1280) every chart axis in round units: no label repeated on one axis, and a time past a minute a whole or
 *    half unit ("1.5 min", never the "1.7 min" 100 s prints as; kit/charts/scales.ts durationTicks).
 */
interface Findings {
  over: string[];
  drawing: string[];
  axes: string[];
}

async function walkWidgets(page: Page, query: string, windowHeight: number): Promise<Findings> {
  const found: Findings = { over: [], drawing: [], axes: [] };
  for (const w of WIDGETS) {
    await page.goto(`/widget/${w.id}${query}`);
    const widget = page.locator(`[data-widget="${w.id}"]`);
    await expect(widget, w.id).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const bottom = await widget.evaluate((el) => {
      const picture = el.querySelector('.widget-figure svg, .widget-figure canvas');
      const readouts = el.querySelector('.widget-readouts');
      return Math.max(
        picture?.getBoundingClientRect().bottom ?? 0,
        readouts?.getBoundingClientRect().bottom ?? 0,
      );
    });
    if (bottom > windowHeight) found.over.push(`${w.id} (${Math.round(bottom)} px)`);
    for (const fault of await textFaults(widget)) found.drawing.push(`${w.id}: ${fault}`);
    for (const bar of await unnamedBars(widget)) found.drawing.push(`${w.id}: bar "${bar}" has no label`);
    for (const part of await strandedSeparators(widget))
      found.drawing.push(`${w.id}: "${part}" wraps its separator onto a line of its own`);
    for (const labels of await axisLabels(widget)) {
      const odd = labels.filter((l) => /\d\.\d+ (min|h|d)\b/.test(l) && !/\.5 /.test(l));
      const repeated = labels.filter((l, i) => labels.indexOf(l) !== i);
      if (odd.length || repeated.length) found.axes.push(`${w.id}: ${labels.join(' · ')}`);
    }
  }
  return found;
}

/** Each chart axis's tick labels. */
function axisLabels(widget: Locator): Promise<string[][]> {
  return widget.evaluate((el) =>
    [...el.querySelectorAll('.chart-axis')].map((a) =>
      [...a.querySelectorAll('.chart-tick')].map((t) => t.textContent ?? ''),
    ),
  );
}

/** Categories of a bar chart (kit BarChart) whose bars no category label names (thinned out, or never drawn). */
function unnamedBars(widget: Locator): Promise<string[]> {
  return widget.evaluate((el) => {
    const out: string[] = [];
    // Compared without white space: a label wrapped onto two lines ("TTL→" / "offload") still names its bar.
    const bare = (s: string) => s.replace(/\s+/g, '');
    for (const svg of el.querySelectorAll('svg[data-chart="bar"]')) {
      const labels = [...svg.querySelectorAll('.chart-tick')].map((t) => bare(t.textContent ?? ''));
      const cats = new Set(
        [...svg.querySelectorAll('.chart-bar')].map((b) => b.getAttribute('data-category') ?? ''),
      );
      // A label may be cut to its band with "…": it names its category if the category starts with what it shows.
      const named = (c: string) =>
        labels.some((l) => l === bare(c) || (l.endsWith('…') && bare(c).startsWith(l.slice(0, -1))));
      for (const c of cats) if (c && !named(c)) out.push(c);
    }
    return out;
  });
}

/**
 * Figures of one read-out (kit SeparatedFigures: "29.1% round-robin · 93.7% affinity") whose separator wrapped away
 * from the figure before it, so that a "·" or "+" stands alone at the start of a line.
 */
function strandedSeparators(widget: Locator): Promise<string[]> {
  return widget.evaluate((el) => {
    const out: string[] = [];
    const box = (node: Text, i: number) => {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      return range.getBoundingClientRect();
    };
    for (const part of el.querySelectorAll('.figure-part')) {
      const chars: { node: Text; i: number }[] = [];
      const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n as Text;
        for (let i = 0; i < t.data.length; i++) if (t.data[i].trim()) chars.push({ node: t, i });
      }
      const last = chars[chars.length - 1];
      if (chars.length < 2 || !'·+'.includes(last.node.data[last.i])) continue;
      const before = chars[chars.length - 2];
      if (box(last.node, last.i).top >= box(before.node, before.i).bottom - 1)
        out.push((part.textContent ?? '').replace(/\s+/g, ' ').trim());
    }
    return out;
  });
}

/** SVG texts drawn partly outside their SVG, or more than 15% of the smaller one over another. */
function textFaults(widget: Locator): Promise<string[]> {
  return widget.evaluate((el) => {
    const out: string[] = [];
    for (const svg of el.querySelectorAll('svg')) {
      const s = svg.getBoundingClientRect();
      if (s.width < 50) continue;
      const boxes = [...svg.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() && getComputedStyle(t).opacity !== '0')
        .map((t) => ({ text: (t.textContent ?? '').trim(), r: t.getBoundingClientRect() }))
        .filter((b) => b.r.width > 0);
      for (const b of boxes)
        if (
          b.r.left < s.left - 1 ||
          b.r.right > s.right + 1 ||
          b.r.top < s.top - 1 ||
          b.r.bottom > s.bottom + 1
        )
          out.push(`"${b.text}" outside its picture`);
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r;
          const c = boxes[j].r;
          const ix = Math.min(a.right, c.right) - Math.max(a.left, c.left);
          const iy = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
          const smaller = Math.min(a.width * a.height, c.width * c.height);
          if (ix > 2 && iy > 3 && (ix * iy) / smaller > 0.15)
            out.push(`"${boxes[i].text}" over "${boxes[j].text}"`);
        }
    }
    return out;
  });
}

/** The screens walked, and what each checks: fit (picture and read-outs above the fold), legible drawings, round axes. */
const SCREENS: readonly {
  name: string;
  width: number;
  height: number;
  present?: boolean;
  fit?: boolean;
  legible?: boolean;
  axes?: boolean;
}[] = [
  { name: 'at 1280 × 800', width: 1280, height: 800, fit: true, legible: true, axes: true },
  { name: 'at 1366 × 768, the commonest laptop screen', width: 1366, height: 768, fit: true },
  {
    name: 'in presentation mode at 1920 × 1080',
    width: 1920,
    height: 1080,
    present: true,
    fit: true,
    legible: true,
  },
  {
    name: 'in presentation mode on a 1280 × 800 projector',
    width: 1280,
    height: 800,
    present: true,
    fit: true,
    legible: true,
  },
  {
    name: 'in presentation mode on a 1280 × 720 projector',
    width: 1280,
    height: 720,
    present: true,
    fit: true,
    legible: true,
  },
  { name: 'on a phone, 390 × 844', width: 390, height: 844, legible: true },
];

for (const screen of SCREENS) {
  const checks = [
    screen.fit && 'picture and key read-outs fit one screen',
    screen.legible &&
      'drawings legible (no text cut off or over other text, every bar named, no separator alone on a line)',
    screen.axes && 'axes in round units',
  ].filter(Boolean);
  test.describe(screen.name, () => {
    test.use({ viewport: { width: screen.width, height: screen.height } });
    test(`every widget: ${checks.join('; ')}`, async ({ page }) => {
      test.setTimeout(300_000);
      const found = await walkWidgets(
        page,
        screen.present ? '?present' : '',
        screen.fit ? screen.height : Infinity,
      );
      if (screen.fit) expect.soft(found.over).toEqual([]);
      if (screen.legible) expect.soft(found.drawing).toEqual([]);
      if (screen.axes) expect.soft(found.axes).toEqual([]);
      if (screen.present) await expect(page.locator('html')).toHaveAttribute('data-present', '');
    });
  });
}
