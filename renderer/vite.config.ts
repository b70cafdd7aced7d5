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
    // Every page but the Overview is its own chunk (src/routes.ts); the main chunk (React,
    // router, react-query, zod) is ~330 kB before gzip; recharts comes with the Analytics page.
    chunkSizeWarningLimit: 450,
  },
  server: {
    proxy: Object.fromEntries(bridgePaths.map((path) => [path, { target: bridge, changeOrigin: false }])),
  },
});
