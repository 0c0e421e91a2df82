/**
 * The glossary: its terms are well formed and each is used in the lessons, and the build's plugin marks each term's
 * first use in prose only (not in headings, links, code, formulas or the tour's captions).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compile } from '@mdx-js/mdx';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GLOSSARY, TERM_BY_ID, glossaryPath, type GlossaryTerm } from '../src/app/glossary/terms';
import { markFirstUses, termRegExp, type HastNode } from '../src/app/glossary/rehypeGlossary';
import { LESSONS } from '../src/app/lessons';
import { LESSON_MDX_OPTIONS } from '../src/app/lessonMdxOptions';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each lesson's marked terms, in order: its MDX compiled as the build compiles it, the Term elements read back. */
async function markedByLesson(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const l of LESSONS) {
    const source = readFileSync(join(root, 'lessons', `${l.slug}.mdx`), 'utf8');
    const js = String(await compile(source, LESSON_MDX_OPTIONS));
    out.set(
      l.slug,
      [...js.matchAll(/_jsxs?\(Term, \{\s*id: "([a-z0-9-]+)"/g)].map((m) => m[1]),
    );
  }
  return out;
}

const text = (value: string): HastNode => ({ type: 'text', value });
const el = (tagName: string, children: HastNode[], className?: string[]): HastNode => ({
  type: 'element',
  tagName,
  properties: className ? { className } : {},
  children,
});
const jsx = (name: string, children: HastNode[]): HastNode => ({
  type: 'mdxJsxFlowElement',
  name,
  attributes: [],
  children,
});
const root_ = (children: HastNode[]): HastNode => ({ type: 'root', children });

/** The ids of the Term elements in a tree, in document order, with their text. */
function termsIn(node: HastNode): [string, string][] {
  if (node.type === 'mdxJsxTextElement' && node.name === 'Term')
    return [[String(node.attributes![0].value), node.children![0].value!]];
  return (node.children ?? []).flatMap(termsIn);
}

const term = (id: string): GlossaryTerm => TERM_BY_ID.get(id)!;

describe('the glossary’s terms', () => {
  it('have unique ids, a definition of whole sentences and a pattern that matches their own name', () => {
    expect(new Set(GLOSSARY.map((t) => t.id)).size).toBe(GLOSSARY.length);
    for (const t of GLOSSARY) {
      expect(t.id).toMatch(/^[a-z0-9-]+$/);
      expect(t.definition).toMatch(/^[A-Z].*\.$/);
      // No figures (they belong to the core or a cited source): only numbers the name has (p50's 50).
      const named = t.name.match(/\d+/g) ?? [];
      for (const n of t.definition.match(/\d+/g) ?? []) expect(named, `${t.id}: ${n}`).toContain(n);
      expect(glossaryPath(t.id)).toBe(`/glossary#${t.id}`);
      const shown = t.name.split(',')[0];
      expect(termRegExp(t).test(shown), `${t.id} matches "${shown}"`).toBe(true);
    }
  });

  it('are each marked in some lesson as the build compiles it, and a lesson said to explain one marks it', async () => {
    const marked = await markedByLesson();
    const anywhere = new Set([...marked.values()].flat());
    for (const t of GLOSSARY) {
      expect(anywhere.has(t.id), `${t.id} is marked in some lesson`).toBe(true);
      if (t.explained === undefined) continue;
      const lesson = LESSONS.find((l) => l.number === t.explained);
      expect(lesson, `${t.id}: lesson ${t.explained}`).toBeDefined();
      expect(marked.get(lesson!.slug), `${t.id} marked in ${t.explained}`).toContain(t.id);
    }
  }, 60_000);
});

describe('rehypeGlossary', () => {
  it('marks the first use only, splitting its text around it', () => {
    const tree = root_([el('p', [text('The TTFT grows. TTFT again.')]), el('p', [text('And TTFT.')])]);
    expect(markFirstUses(tree, [term('ttft')])).toEqual(['ttft']);
    expect(termsIn(tree)).toEqual([['ttft', 'TTFT']]);
    const p = tree.children![0];
    expect(p.children!.map((c) => c.value ?? `<${c.name}>`)).toEqual([
      'The ',
      '<Term>',
      ' grows. TTFT again.',
    ]);
  });

  it('leaves headings, links, code, formulas and other components alone, and marks the recap’s prose', () => {
    const tree = root_([
      el('h2', [text('Where TTFT goes')]),
      jsx('TourStep', [el('p', [text('TTFT in a caption')])]),
      el('p', [el('a', [text('TTFT')]), text(' and '), el('code', [text('TTFT')])]),
      el('p', [el('span', [text('TTFT')], ['katex'])]),
      jsx('Recap', [el('p', [text('Here TTFT is explained.')])]),
      el('p', [text('Later TTFT.')]),
    ]);
    markFirstUses(tree, [term('ttft')]);
    expect(termsIn(tree)).toEqual([['ttft', 'TTFT']]);
    expect(termsIn(tree.children![4])).toEqual([['ttft', 'TTFT']]);
  });

  it('matches whole words: TP is not in TPOT or TP2, HBM not in HBM3e', () => {
    const tree = root_([el('p', [text('TPOT on TP2 with HBM3e; TP splits layers; HBM holds KV.')])]);
    expect(markFirstUses(tree, [term('tensor-parallelism'), term('hbm'), term('tpot')])).toEqual([
      'tensor-parallelism',
      'hbm',
      'tpot',
    ]);
    const p = tree.children![0];
    const values = p.children!.map((c) => (c.type === 'text' ? c.value : `[${c.children![0].value}]`));
    expect(values.join('')).toBe('[TPOT] on TP2 with HBM3e; [TP] splits layers; [HBM] holds KV.');
  });

  it('marks a phrase before a word inside it: "chunked prefill" is one term, and "prefill" its next use', () => {
    const tree = root_([el('p', [text('With chunked prefill, a prefill shares the GPU.')])]);
    markFirstUses(tree, [term('prefill'), term('chunked-prefill')]);
    expect(termsIn(tree)).toEqual([
      ['chunked-prefill', 'chunked prefill'],
      ['prefill', 'prefill'],
    ]);
  });

  it('never marks inside a Term: run again, it marks the next use', () => {
    const tree = root_([el('p', [text('TTFT and TTFT.')])]);
    markFirstUses(tree, [term('ttft')]);
    markFirstUses(tree, [term('ttft')]);
    expect(termsIn(tree)).toHaveLength(2); // the second run marks the next use, never inside the first Term
    expect(termsIn(tree).every(([, t]) => t === 'TTFT')).toBe(true);
  });
});
