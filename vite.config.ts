import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SPA is served by the service itself in production (`npm start` serves dist/ at `/`),
// so the dev server only has to forward the API to a running service.
export default defineConfig({
  plugins: [react(), tailwindcss()],
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
