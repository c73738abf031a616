import { promisify } from 'node:util';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Below this the encoding header and framing cost about what compression saves. */
const PRECOMPRESS_MIN_BYTES = 1024;
const PRECOMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|wasm)$/u;

/**
 * Writes `.br` and `.gz` beside every compressible emitted file over 1 kB, at the highest
 * levels: done once at build, so the service (@fastify/static `preCompressed`) sends them
 * without compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'redline-precompress',
    apply: 'build',
    configResolved(config) { outDir = path.resolve(config.root, config.build.outDir); },
    async writeBundle(_options, bundle) {
      await Promise.all(Object.values(bundle).map(async (file) => {
        if (!PRECOMPRESSIBLE.test(file.fileName)) return;
        const source = file.type === 'chunk' ? Buffer.from(file.code) : Buffer.from(file.source);
        if (source.byteLength < PRECOMPRESS_MIN_BYTES) return;
        const target = path.join(outDir, file.fileName);
        const [br, gz] = await Promise.all([
          brotli(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.byteLength } }),
          gzipAsync(source, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${target}.br`, br), writeFile(`${target}.gz`, gz)]);
      }));
    },
  };
}

const OPENING_READS = 'src/app/opening-reads.ts';

/**
 * The opening's reads (src/app/opening-reads.ts) as an entry of their own, its script first in
 * the page: a small file that runs as soon as it arrives, while the app's bundle is still on its
 * way (Vite would make every module script of index.html one entry, run after the whole bundle).
 */
function openingReads(): Plugin {
  return {
    name: 'redline-opening-reads',
    apply: 'build',
    options(options) {
      const input = options.input ?? 'index.html';
      const named = typeof input === 'string' ? { index: input } : Array.isArray(input) ? Object.fromEntries(input.map((i) => [path.parse(i).name, i])) : input;
      return { ...options, input: { ...named, 'opening-reads': path.resolve(OPENING_READS) } };
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunk = Object.values(bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId === path.resolve(OPENING_READS));
        if (!chunk) throw new Error(`${OPENING_READS} was not built`);
        // Its imports are asked for beside it, not once it has been read.
        const imports = chunk.type === 'chunk' ? chunk.imports : [];
        return [
          { tag: 'script', attrs: { type: 'module', crossorigin: true, src: `/${chunk.fileName}` }, injectTo: 'head-prepend' },
          ...imports.map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head-prepend' as const })),
        ];
      },
    },
  };
}

// The SPA is served by the service itself in production (`npm start` serves dist/ at `/`),
// so the dev server only has to forward the API to a running service.
export default defineConfig({
  plugins: [react(), tailwindcss(), precompress(), openingReads()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser Redline supports has <link rel=modulepreload>; the polyfill would only add
    // bytes to the entry chunk.
    modulePreload: { polyfill: false },
    sourcemap: true,
    // bench/app.ts reads the chunk graph from here to size each route's initial JavaScript.
    manifest: true,
  },
  server: {
    proxy: { '/api': 'http://localhost:8787' },
  },
});
