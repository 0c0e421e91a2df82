/**
 * Every highlight a guided tour or a "Try this" item names exists in its widget: a tour step's `highlight` (in the
 * lesson's MDX), and each widget's "Try this" items' `highlight` (which "Show me" and a tour's `tryThis` step use),
 * are ids the widget publishes as `data-readout` or `data-mark` (a TourMark's id), the ids stage.ts findMark looks
 * up. A misspelt id would fail silently in the browser: the step shows, nothing is ringed.
 *
 * The ids are read from the source, not from a rendered widget: most widgets draw their read-outs only once a
 * simulation (seconds to minutes of fleet runs) has answered. Starting from the module the registry loads for the
 * widget, the test follows its relative imports under src/widgets (the kit included) and collects, with the
 * TypeScript parser, every `data-readout` and `data-mark` JSX attribute: a literal id; a template literal as a
 * pattern (`holds-${t.id}` → holds-…); an id a component receives as a prop (TourMark's `id`, a read-out helper's)
 * resolved at each place the widget's modules render that component. A highlight must match one of them.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkMath from 'remark-math';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { WIDGETS } from '../src/widgets/registry';
import { LESSONS } from '../src/app/lessons';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WIDGETS_DIR = join(ROOT, 'src/widgets');
const ID_ATTRIBUTES = new Set(['data-readout', 'data-mark']);

// ---------------------------------------------------------------------------------------------------------------
// The ids a widget publishes.

/** An id as the source gives it: regular-expression source, literal parts escaped, unknown parts as `.+`. */
type IdPattern = string;
/** A prop a component forwards into an id attribute: the id is `prefix + <prop> + suffix` (regex sources). */
interface Forward {
  component: string;
  prop: string;
  prefix: string;
  suffix: string;
}
/** A value in an id position: a pattern, or a prop of the enclosing component it is built from. */
type IdValue = { pattern: IdPattern } | { forward: Omit<Forward, 'component'> };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ANY = '.+';

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const f of [base, `${base}.tsx`, `${base}.ts`, join(base, 'index.tsx'), join(base, 'index.ts')])
    if (/\.tsx?$/.test(f) && existsSync(f)) return f;
  return null;
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) {
    sf = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    parsed.set(file, sf);
  }
  return sf;
}

/** The widget's modules: its root and every module it imports, transitively, from under src/widgets. */
function moduleGraph(root: string): string[] {
  const seen = new Set<string>([root]);
  const queue = [root];
  while (queue.length) {
    const file = queue.pop()!;
    for (const st of parse(file).statements) {
      const spec =
        (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) &&
        st.moduleSpecifier &&
        ts.isStringLiteral(st.moduleSpecifier)
          ? st.moduleSpecifier.text
          : null;
      const target = spec ? resolveImport(file, spec) : null;
      if (target && target.startsWith(WIDGETS_DIR) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen];
}

/** The component (a capitalised function or const) a node is inside, and how its props are named. */
function enclosingComponent(
  node: ts.Node,
): { name: string; props: Set<string>; propsObject: string | null } | null {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    let name: string | null = null;
    let fn: ts.SignatureDeclaration | null = null;
    if (ts.isFunctionDeclaration(n) && n.name) {
      name = n.name.text;
      fn = n;
    } else if (
      (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) &&
      ts.isVariableDeclaration(n.parent) &&
      ts.isIdentifier(n.parent.name)
    ) {
      name = n.parent.name.text;
      fn = n;
    }
    if (!name || !fn || !/^[A-Z]/.test(name)) continue;
    const first = fn.parameters[0];
    const props = new Set<string>();
    let propsObject: string | null = null;
    if (first && ts.isObjectBindingPattern(first.name))
      for (const el of first.name.elements) {
        const key = el.propertyName ?? el.name;
        if (ts.isIdentifier(key) && ts.isIdentifier(el.name) && el.name.text === key.text)
          props.add(key.text);
      }
    else if (first && ts.isIdentifier(first.name)) propsObject = first.name.text;
    return { name, props, propsObject };
  }
  return null;
}

/** What an expression in an id position gives: a literal, a template, a prop of the component, or unknown. */
function idValue(expr: ts.Expression, at: ts.Node): IdValue[] {
  const comp = enclosingComponent(at);
  const propOf = (e: ts.Expression): string | null => {
    if (!comp) return null;
    if (ts.isIdentifier(e) && comp.props.has(e.text)) return e.text;
    if (
      ts.isPropertyAccessExpression(e) &&
      ts.isIdentifier(e.expression) &&
      e.expression.text === comp.propsObject
    )
      return e.name.text;
    return null;
  };
  if (ts.isParenthesizedExpression(expr)) return idValue(expr.expression, at);
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr))
    return [{ pattern: escape(expr.text) }];
  if (ts.isConditionalExpression(expr))
    return [...idValue(expr.whenTrue, at), ...idValue(expr.whenFalse, at)];
  const prop = propOf(expr);
  if (prop) return [{ forward: { prop, prefix: '', suffix: '' } }];
  if (ts.isTemplateExpression(expr)) {
    // One span that is a prop (`${props.readout}-request`) forwards it; any other span matches anything.
    const parts: (string | { prop: string })[] = [escape(expr.head.text)];
    for (const span of expr.templateSpans) {
      const p = propOf(span.expression);
      parts.push(p ? { prop: p } : ANY, escape(span.literal.text));
    }
    const props = parts.filter((x): x is { prop: string } => typeof x !== 'string');
    if (props.length === 1) {
      const i = parts.indexOf(props[0]);
      const text = (xs: typeof parts) => xs.map((x) => (typeof x === 'string' ? x : ANY)).join('');
      return [
        {
          forward: { prop: props[0].prop, prefix: text(parts.slice(0, i)), suffix: text(parts.slice(i + 1)) },
        },
      ];
    }
    return [{ pattern: parts.map((x) => (typeof x === 'string' ? x : ANY)).join('') }];
  }
  return [{ pattern: ANY }];
}

const attrName = (a: ts.JsxAttribute) => (ts.isIdentifier(a.name) ? a.name.text : a.name.getText());

/** The JSX elements of a file, each with its tag name and attributes. */
function jsxElements(sf: ts.SourceFile): { tag: string; attrs: ts.JsxAttribute[]; node: ts.Node }[] {
  const out: { tag: string; attrs: ts.JsxAttribute[]; node: ts.Node }[] = [];
  const walk = (n: ts.Node) => {
    if (ts.isJsxSelfClosingElement(n) || ts.isJsxOpeningElement(n))
      out.push({
        tag: n.tagName.getText(sf),
        attrs: n.attributes.properties.filter(ts.isJsxAttribute),
        node: n,
      });
    ts.forEachChild(n, walk);
  };
  walk(sf);
  return out;
}

function attrValue(a: ts.JsxAttribute, at: ts.Node): IdValue[] | null {
  const init = a.initializer;
  if (!init) return null;
  if (ts.isStringLiteral(init)) return [{ pattern: escape(init.text) }];
  if (ts.isJsxExpression(init) && init.expression) return idValue(init.expression, at);
  return null;
}

/** Every id pattern the widget's modules publish, and what could not be pinned down (for the report). */
function publishedIds(files: readonly string[]): { patterns: Set<IdPattern>; unresolved: string[] } {
  const elements = files.flatMap((f) => jsxElements(parse(f)).map((e) => ({ ...e, file: f })));
  const patterns = new Set<IdPattern>();
  const forwards: Forward[] = [];
  const unresolved: string[] = [];
  // An id found at `node`, inside what the caller wraps around it (a forwarding component's prefix and suffix).
  const take = (values: IdValue[], node: ts.Node, file: string, outer = { prefix: '', suffix: '' }) => {
    for (const v of values)
      if ('pattern' in v) patterns.add(outer.prefix + v.pattern + outer.suffix);
      else {
        const comp = enclosingComponent(node);
        if (!comp) unresolved.push(`${relative(ROOT, file)}: a prop outside a component`);
        else
          forwards.push({
            component: comp.name,
            prop: v.forward.prop,
            prefix: outer.prefix + v.forward.prefix,
            suffix: v.forward.suffix + outer.suffix,
          });
      }
  };
  for (const e of elements)
    for (const a of e.attrs)
      if (ID_ATTRIBUTES.has(attrName(a))) take(attrValue(a, e.node) ?? [], e.node, e.file);
  // Each forwarding component, at each place one of the modules renders it: its prop's value, wrapped (a forward
  // found there, a prop of the caller, is followed in turn).
  for (let i = 0; i < forwards.length && i < 1000; i++) {
    const f = forwards[i];
    for (const e of elements) {
      if (e.tag !== f.component) continue;
      const a = e.attrs.find((x) => attrName(x) === f.prop);
      const values = a ? attrValue(a, e.node) : null;
      if (!values) continue;
      take(values, e.node, e.file, f);
    }
  }
  return { patterns, unresolved };
}

// ---------------------------------------------------------------------------------------------------------------
// The highlights tours and "Try this" items name.

interface Step {
  lesson: string;
  index: number;
  widget?: string;
  highlight?: string;
  tryThis?: number;
}

/** The TourSteps of a lesson's MDX, with their widget, highlight and tryThis attributes. */
function tourSteps(lesson: string): Step[] {
  const source = readFileSync(join(ROOT, 'lessons', `${lesson}.mdx`), 'utf8');
  const tree = unified().use(remarkParse).use(remarkMath).use(remarkMdx).parse(source);
  const steps: Step[] = [];
  visit(tree, (node) => {
    const n = node as {
      type: string;
      name?: string | null;
      attributes?: { type: string; name?: string; value?: unknown }[];
    };
    if ((n.type !== 'mdxJsxFlowElement' && n.type !== 'mdxJsxTextElement') || n.name !== 'TourStep') return;
    const attr = (name: string) => n.attributes?.find((a) => a.type === 'mdxJsxAttribute' && a.name === name);
    const text = (name: string) => {
      const a = attr(name);
      if (!a) return undefined;
      if (typeof a.value === 'string') return a.value;
      throw new Error(`${lesson}: TourStep ${name} must be a plain string (the test reads it)`);
    };
    const tryAttr = attr('tryThis');
    const tryValue = tryAttr?.value as { value?: string } | undefined;
    steps.push({
      lesson,
      index: steps.length,
      widget: text('widget'),
      highlight: text('highlight'),
      tryThis: tryAttr ? Number(tryValue?.value) : undefined,
    });
  });
  return steps;
}

/** Each registry widget's root module, as its `load` imports it. */
function widgetModules(): Map<string, string> {
  const src = readFileSync(join(WIDGETS_DIR, 'registry.ts'), 'utf8');
  const out = new Map<string, string>();
  for (const m of src.matchAll(/id: '([^']+)',[^}]*?import\('(\.\/[^']+)'\)/gs))
    out.set(m[1], resolveImport(join(WIDGETS_DIR, 'registry.ts'), m[2])!);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

const modules = widgetModules();
const published = new Map<string, ReturnType<typeof publishedIds>>();
const idsOf = (widget: string) => {
  let p = published.get(widget);
  if (!p) {
    p = publishedIds(moduleGraph(modules.get(widget)!));
    published.set(widget, p);
  }
  return p;
};
const matches = (widget: string, id: string) =>
  [...idsOf(widget).patterns].some((p) => new RegExp(`^(?:${p})$`).test(id));

/**
 * The widget's "Try this" items as its source lists them (exported or not): the array literal a `<TryThis items={…}>`
 * of its modules renders, each item's `highlight` (undefined when it has none). A highlight that is not a literal
 * string fails: the test could not check it.
 */
function tryThisOf(widget: string): (string | undefined)[] | undefined {
  for (const file of moduleGraph(modules.get(widget)!)) {
    const sf = parse(file);
    const use = jsxElements(sf).find((e) => e.tag === 'TryThis');
    const items = use?.attrs.find((a) => attrName(a) === 'items')?.initializer;
    if (!use || !items) continue;
    if (!ts.isJsxExpression(items) || !items.expression || !ts.isIdentifier(items.expression))
      throw new Error(`${relative(ROOT, file)}: <TryThis items={…}> is not a named list`);
    const name = items.expression.text;
    let list: ts.ArrayLiteralExpression | null = null;
    const walk = (n: ts.Node) => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer) {
        let init: ts.Expression = n.initializer;
        while (
          ts.isAsExpression(init) ||
          ts.isSatisfiesExpression(init) ||
          ts.isParenthesizedExpression(init)
        )
          init = init.expression;
        if (ts.isArrayLiteralExpression(init)) list = init;
      }
      ts.forEachChild(n, walk);
    };
    walk(sf);
    if (!list) throw new Error(`${relative(ROOT, file)}: no array literal ${name}`);
    return (list as ts.ArrayLiteralExpression).elements.map((el, i) => {
      if (!ts.isObjectLiteralExpression(el))
        throw new Error(`${relative(ROOT, file)}: ${name}[${i}] is not an object`);
      const h = el.properties.find(
        (p): p is ts.PropertyAssignment =>
          ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'highlight',
      );
      if (!h) return undefined;
      if (!ts.isStringLiteral(h.initializer) && !ts.isNoSubstitutionTemplateLiteral(h.initializer))
        throw new Error(`${relative(ROOT, file)}: ${name}[${i}].highlight is not a literal string`);
      return h.initializer.text;
    });
  }
  return undefined;
}

describe('the ids tours highlight exist in their widgets', () => {
  it('the registry maps every widget to the module it loads', () => {
    expect([...modules.keys()].sort()).toEqual(WIDGETS.map((w) => w.id).sort());
  });

  it('the collector reads literal, template and forwarded ids (TourMark, read-out helpers)', () => {
    // A TourMark (its id forwarded to data-mark), a read-out helper (SoFar's id), a literal read-out, a template.
    expect(matches('cache-router', 'router-picture')).toBe(true);
    expect(matches('cache-router', 'hit-rate')).toBe(true);
    expect(matches('cache-router', 'duplicate-kv')).toBe(true);
    expect(matches('memory-ladder', 'holds-hbm')).toBe(true);
    expect(matches('affinity-fleet', 'hit-request')).toBe(true);
    // ... and no more: a misspelt id, or another widget's, does not match.
    expect(matches('cache-router', 'router-pictur')).toBe(false);
    expect(matches('cache-router', 'capacity-ratio')).toBe(false);
    expect(matches('slo-sweep', 'agents-per-megawatt')).toBe(false);
    // No widget publishes an id the test cannot read (which would match anything).
    for (const w of modules.keys()) {
      expect(idsOf(w).unresolved, w).toEqual([]);
      expect(
        [...idsOf(w).patterns].filter((p) => p === ANY),
        w,
      ).toEqual([]);
    }
  });

  for (const lesson of LESSONS.map((l) => l.slug)) {
    it(`${lesson}: every tour step's highlight, its own or its Try this item's`, () => {
      const steps = tourSteps(lesson);
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) {
        const where = `${lesson} step ${s.index + 1}`;
        if (s.highlight !== undefined) expect(s.widget, `${where}: a highlight needs a widget`).toBeDefined();
        if (!s.widget) continue;
        expect(modules.has(s.widget), `${where}: no widget "${s.widget}" in the registry`).toBe(true);
        let highlight = s.highlight;
        if (s.tryThis !== undefined) {
          const items = tryThisOf(s.widget);
          expect(s.tryThis, `${where}: ${s.widget} has no Try this item ${s.tryThis}`).toBeLessThan(
            items?.length ?? 0,
          );
          highlight ??= items![s.tryThis];
        }
        if (highlight !== undefined)
          expect(matches(s.widget, highlight), `${where}: "${highlight}" is not an id of ${s.widget}`).toBe(
            true,
          );
      }
    });
  }

  it('every widget’s Try this items (Show me) highlight ids of that widget', () => {
    let checked = 0;
    for (const widget of modules.keys())
      for (const [i, highlight] of (tryThisOf(widget) ?? []).entries())
        if (highlight !== undefined) {
          checked++;
          expect(
            matches(widget, highlight),
            `${widget} Try this ${i + 1}: "${highlight}" is not an id of ${widget}`,
          ).toBe(true);
        }
    expect(checked).toBeGreaterThan(40);
  });

  it('reads the Try this lists as the widgets export them', async () => {
    const { TRY_THIS } = await import('../src/widgets/agents-per-mw/SloSweep');
    expect(tryThisOf('slo-sweep')).toEqual(TRY_THIS.map((t) => t.highlight));
  });

  it('07.12 step 3, whose caption ends on agents per megawatt, highlights that read-out', () => {
    const step = tourSteps('07-12-agents-per-megawatt')[2];
    expect(step.highlight).toBe('agents-per-mw');
  });
});
