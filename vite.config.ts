import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import mdx from '@mdx-js/rollup';
import { LESSON_MDX_OPTIONS } from './src/app/lessonMdxOptions.ts';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { relative, resolve } from 'node:path';
import { serviceWorkerSource } from './src/offline/serviceWorkerSource.ts';

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

/** The Content-Security-Policy and referrer policy as meta tags of index.html (any host honours those). */
function securityMetaTags(): Plugin {
  return {
    name: 'security-meta-tags',
    apply: 'build',
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
  };
}

/**
 * The files a static host and the browser need beside the build, written once it is on disk, into its folder
 * (dist/, or --outDir):
 * - `404.html`, the app shell: static hosts serve it for unknown paths, so every deep link reloads;
 * - `_headers` (Netlify, Cloudflare Pages): the policy again, with what a meta tag cannot carry;
 * - `sw.js`, the service worker that keeps the lab usable offline (src/offline/serviceWorkerSource.ts), listing
 *   every other file of the build and versioned by their contents.
 */
function hostFiles(): Plugin {
  let outDir = '';
  return {
    name: 'host-files',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      handler() {
        copyFileSync(resolve(outDir, 'index.html'), resolve(outDir, '404.html'));
        const headers = [
          '/*',
          `  Content-Security-Policy: ${CONTENT_SECURITY_POLICY}`,
          '  X-Content-Type-Options: nosniff',
          '  Referrer-Policy: strict-origin-when-cross-origin',
          '',
        ].join('\n');
        writeFileSync(resolve(outDir, '_headers'), headers);
        const hostOnly = new Set(['404.html', '_headers', 'sw.js']);
        const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => relative(outDir, resolve(e.parentPath, e.name)).split('\\').join('/'))
          // KaTeX's fonts come as woff2, woff and ttf; every browser that runs service workers reads woff2.
          .filter((f) => !hostOnly.has(f) && !/\.(map|woff|ttf)$/.test(f))
          .sort();
        const hash = createHash('sha256');
        for (const f of files) hash.update(f).update(readFileSync(resolve(outDir, f)));
        writeFileSync(resolve(outDir, 'sw.js'), serviceWorkerSource(hash.digest('hex').slice(0, 16), files));
      },
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
    securityMetaTags(),
    hostFiles(),
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
