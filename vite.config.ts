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
    // The service's CSP forbids inline scripts; Vite's module preload polyfill is inline-free
    // but we also do not need it (every supported browser has modulepreload).
    modulePreload: { polyfill: false },
    sourcemap: true,
  },
  server: {
    proxy: { '/api': 'http://localhost:8787' },
  },
});
