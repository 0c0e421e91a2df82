import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import mdx from '@mdx-js/rollup';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import rehypeSlug from 'rehype-slug';
import rehypeHighlight from 'rehype-highlight';
import { copyFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Static hosts serve 404.html for unknown paths; making it the app shell gives every deep link a working reload. */
function spaFallback(): Plugin {
  return {
    name: 'spa-fallback-404',
    apply: 'build',
    closeBundle() {
      const dist = resolve(import.meta.dirname, 'dist');
      copyFileSync(resolve(dist, 'index.html'), resolve(dist, '404.html'));
    },
  };
}

export default defineConfig({
  plugins: [
    // MDX must run before React so the React plugin sees compiled JSX (order from @vitejs/plugin-react's README).
    {
      enforce: 'pre',
      ...mdx({
        providerImportSource: '@mdx-js/react',
        remarkPlugins: [remarkMath],
        rehypePlugins: [rehypeSlug, rehypeKatex, [rehypeHighlight, { detect: false }]],
      }),
    },
    react({ include: /\.(mdx|js|jsx|ts|tsx)$/ }),
    spaFallback(),
  ],
  worker: { format: 'es' },
  optimizeDeps: {
    include: [
      '@mdx-js/react',
      'comlink',
      'd3',
      'zustand',
      '@mlc-ai/web-xgrammar',
      'gpt-tokenizer/encoding/o200k_base',
      'gpt-tokenizer/esm/bpeRanks/o200k_base',
    ],
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1' },
});
