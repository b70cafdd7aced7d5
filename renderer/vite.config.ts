import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev:renderer` serves the dashboard with hot reload and forwards API calls to a running
// bridge (`npm run serve`), so the page stays same-origin as it is when the bridge serves it.
const bridge = process.env.BRIDGE_URL ?? 'http://127.0.0.1:4100';
const bridgePaths = [
  '/health',
  '/api',
  '/events',
  '/webhooks',
  '/openapi.json',
  '/postsvc',
  '/streamhost',
  '/analytics',
  '/clips',
  '/guests',
];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: the same build works served by the bridge at `/` and loaded from file://.
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // The main chunk (React, router, react-query, zod, twitter-text) is ~610 kB and served from
    // the bridge on the LAN or loaded locally; recharts is already split out with its page.
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: Object.fromEntries(bridgePaths.map((path) => [path, { target: bridge, changeOrigin: false }])),
  },
});
