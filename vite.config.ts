import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import mdx from '@mdx-js/rollup';
import { LESSON_MDX_OPTIONS } from './src/app/lessonMdxOptions.ts';
import { copyFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The built site's Content-Security-Policy: scripts, workers and data from the origin only; no eval (the grammar
 * engine's WebAssembly needs only 'wasm-unsafe-eval'); no inline scripts or style attributes (React and D3 set
 * styles through the CSSOM, which a policy does not govern). One policy, written twice: a meta tag in index.html (any host) and a `_headers`
 * file (Netlify, Cloudflare Pages) that adds what a meta tag cannot carry. The dev server keeps no policy: its
 * hot-reload preamble is an inline script.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

function securityHeaders(): Plugin {
  let outDir = '';
  return {
    name: 'security-headers',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: {
      order: 'pre',
      handler: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
          injectTo: 'head-prepend',
        },
        {
          tag: 'meta',
          attrs: { name: 'referrer', content: 'strict-origin-when-cross-origin' },
          injectTo: 'head',
        },
      ],
    },
    closeBundle() {
      const headers = [
        '/*',
        `  Content-Security-Policy: ${CONTENT_SECURITY_POLICY}`,
        '  X-Content-Type-Options: nosniff',
        '  Referrer-Policy: strict-origin-when-cross-origin',
        '',
      ].join('\n');
      writeFileSync(resolve(outDir, '_headers'), headers);
    },
  };
}

/** Static hosts serve 404.html for unknown paths; making it the app shell gives every deep link a working reload. */
function spaFallback(): Plugin {
  let outDir = '';
  return {
    name: 'spa-fallback-404',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir); // the build's folder (--outDir too), not always dist/
    },
    closeBundle() {
      copyFileSync(resolve(outDir, 'index.html'), resolve(outDir, '404.html'));
    },
  };
}

export default defineConfig({
  plugins: [
    // MDX must run before React so the React plugin sees compiled JSX (order from @vitejs/plugin-react's README).
    {
      enforce: 'pre',
      ...mdx(LESSON_MDX_OPTIONS),
    },
    react({ include: /\.(mdx|js|jsx|ts|tsx)$/ }),
    spaFallback(),
    securityHeaders(),
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
