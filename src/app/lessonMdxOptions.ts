/**
 * How a lesson's MDX is compiled: math (KaTeX), heading anchors, highlighted code, and glossary terms marked at
 * their first use. Build-time only: vite.config.ts compiles the lessons with it, and tests/glossary.test.ts compiles
 * them the same way to read what was marked; the app never imports it.
 */
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import rehypeSlug from 'rehype-slug';
import rehypeHighlight from 'rehype-highlight';
import type mdx from '@mdx-js/rollup';
import rehypeGlossary from './glossary/rehypeGlossary.ts';

type MdxOptions = NonNullable<Parameters<typeof mdx>[0]>;

export const LESSON_MDX_OPTIONS: MdxOptions = {
  providerImportSource: '@mdx-js/react',
  remarkPlugins: [remarkMath],
  // The glossary last: KaTeX's and the highlighter's elements exist by then, and it leaves them alone.
  rehypePlugins: [rehypeSlug, rehypeKatex, [rehypeHighlight, { detect: false }], rehypeGlossary],
};
