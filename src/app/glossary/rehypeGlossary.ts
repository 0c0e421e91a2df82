/**
 * A rehype plugin for the lessons' MDX: the first use of each glossary term in a lesson's prose becomes a
 * `<Term id="…">` element (Term.tsx), which explains it on hover or tap. First use only, as a dictionary-style
 * page marks a word once; the glossary page has every term.
 *
 * Prose is the text of paragraphs, lists, tables and the recap, callout and remember boxes. Left alone: headings,
 * links, code, formulas (KaTeX's output), the references (a paper's title is not a use) and every other MDX
 * component (the tour's captions, figures, widgets), whose text is not the lesson's running prose.
 */
import { GLOSSARY, type GlossaryTerm } from './terms.ts';

/** The parts of a hast tree (with MDX's JSX nodes) this plugin reads and writes. */
interface Attribute {
  type: string;
  name?: string;
  value?: unknown;
}
export interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  name?: string | null;
  properties?: { className?: unknown };
  attributes?: Attribute[];
  children?: HastNode[];
  data?: Record<string, unknown>;
}

const SKIP_TAGS = new Set([
  'a',
  'abbr',
  'button',
  'code',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'kbd',
  'math',
  'pre',
  'script',
  'style',
  'svg',
]);
/** MDX components whose children are the lesson's prose. */
const PROSE_COMPONENTS = new Set(['Recap', 'Callout', 'Remember']);
const SKIP_CLASSES = ['katex', 'katex-display', 'katex-error', 'math', 'math-inline', 'math-display'];

function classes(node: HastNode): string[] {
  const c = node.properties?.className;
  return Array.isArray(c) ? c.map(String) : typeof c === 'string' ? c.split(/\s+/) : [];
}

/** Whether text under this node is prose a term may be marked in. */
function isProseContainer(node: HastNode): boolean {
  if (node.type === 'root') return true;
  if (node.type === 'element')
    return !SKIP_TAGS.has(node.tagName ?? '') && !classes(node).some((c) => SKIP_CLASSES.includes(c));
  if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement')
    return PROSE_COMPONENTS.has(node.name ?? '');
  return false;
}

interface Found {
  parent: HastNode;
  index: number;
  match: RegExpExecArray;
}

/** A heading that starts the lesson's references: nothing after it is prose (titles of papers are not uses). */
function startsReferences(node: HastNode): boolean {
  return (
    node.type === 'element' &&
    node.tagName === 'h2' &&
    (node.children ?? []).some((c) => c.type === 'text' && /^\s*References\s*$/.test(c.value ?? ''))
  );
}

/** The first text node of prose, in document order, where `re` matches. */
function findFirst(node: HastNode, re: RegExp): Found | null {
  const kids = node.children;
  if (!kids || !isProseContainer(node)) return null;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (node.type === 'root' && startsReferences(k)) return null;
    if (k.type === 'text') {
      const match = re.exec(k.value ?? '');
      if (match) return { parent: node, index: i, match };
    } else {
      const f = findFirst(k, re);
      if (f) return f;
    }
  }
  return null;
}

/** The `<Term id>` element MDX compiles to the Term component (mdxComponents). */
function termNode(id: string, text: string): HastNode {
  return {
    type: 'mdxJsxTextElement',
    name: 'Term',
    attributes: [{ type: 'mdxJsxAttribute', name: 'id', value: id }],
    children: [{ type: 'text', value: text }],
    data: { _mdxExplicitJsx: true },
  };
}

/** The term's pattern as a whole-word expression; a space in it matches any run of white space (a line break). */
export function termRegExp(t: GlossaryTerm): RegExp {
  return new RegExp(`\\b(?:${t.pattern.replaceAll(' ', '\\s+')})\\b`);
}

/**
 * Mark the first use of each term in `tree`, in place. Phrases go first, so that "chunked prefill" is one term
 * rather than "prefill" inside it. Returns the ids marked, in the order of the list.
 */
export function markFirstUses(tree: HastNode, terms: readonly GlossaryTerm[] = GLOSSARY): string[] {
  const marked: string[] = [];
  const ordered = [...terms].sort((a, b) => Number(b.name.includes(' ')) - Number(a.name.includes(' ')));
  for (const t of ordered) {
    const f = findFirst(tree, termRegExp(t));
    if (!f) continue;
    const text = f.parent.children![f.index].value ?? '';
    const at = f.match.index;
    const word = f.match[0];
    const parts: HastNode[] = [];
    if (at > 0) parts.push({ type: 'text', value: text.slice(0, at) });
    parts.push(termNode(t.id, word));
    if (at + word.length < text.length) parts.push({ type: 'text', value: text.slice(at + word.length) });
    f.parent.children!.splice(f.index, 1, ...parts);
    marked.push(t.id);
  }
  return terms.map((t) => t.id).filter((id) => marked.includes(id));
}

/** The plugin (vite.config.ts, after KaTeX and highlighting have made their elements). */
export default function rehypeGlossary() {
  return (tree: HastNode) => {
    markFirstUses(tree);
  };
}
