import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { earlyScript } from './scripts/early-script.ts';
import { precompress } from './scripts/precompress.ts';

/**
 * The web app's build: web/ -> web/dist, with a manifest (web/scripts/size.mjs walks it)
 * and .br/.gz copies of the text assets that the server sends as they are
 * (src/http/web-app.ts, @fastify/static preCompressed), so no request pays for compression.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), tailwindcss(), earlyScript(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // Every browser the app supports loads module preloads natively: no polyfill in the entry.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      output: {
        // recharts (the reports' charts, a lazy chunk) is over the 100 KB chunk budget with its
        // dependencies: the d3 scales and shapes and its store load as a second chunk, in parallel.
        manualChunks: (id) => (/node_modules\/(d3-[a-z-]+|internmap|victory-vendor|@reduxjs|redux|redux-thunk|immer|reselect|decimal\.js-light|eventemitter3|es-toolkit)\//.test(id) ? 'charts-deps' : undefined),
      },
    },
  },
  server: {
    // `vite --config web/vite.config.ts` during development: the API of a `sheaf serve` on 8080.
    proxy: { '/api': 'http://127.0.0.1:8080', '/web/api': 'http://127.0.0.1:8080' },
  },
});
