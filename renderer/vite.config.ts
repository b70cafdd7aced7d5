import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
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

const PRELOAD_ENTRY = 'preload';
const MAIN_ENTRY = fileURLToPath(new URL('index.html', import.meta.url));

/**
 * The preload entry (src/api/transport/preload-start.ts) as the first script of index.html, `async`: it
 * runs the moment it arrives, before the bundle does, and asks for the first screen's data.
 * A module script of its own, not part of the bundle's entry (Vite would put it behind the bundle).
 */
function preloadScript(): Plugin {
  return {
    name: 'studio-bridge-preload-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === PRELOAD_ENTRY,
        );
        if (!chunk) throw new Error(`vite.config: the ${PRELOAD_ENTRY} entry was not built`);
        const tag = `<script type="module" async crossorigin src="./${chunk.fileName}"></script>\n    `;
        const at = html.indexOf('<script');
        if (at < 0) throw new Error('vite.config: index.html has no script to put the preload before');
        return `${html.slice(0, at)}${tag}${html.slice(at)}`;
      },
    },
  };
}

/**
 * A brotli and a gzip copy next to each script and stylesheet, made once here rather than by the
 * bridge per request (main/http/dashboard-files.ts sends them to browsers that accept them).
 */
function compressedCopies(): Plugin {
  return {
    name: 'studio-bridge-compressed-copies',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? '';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(?:js|css)$/.test(fileName)) continue;
        const source = readFileSync(join(dir, fileName));
        if (source.length < 1024) continue; // too small to gain anything
        writeFileSync(
          join(dir, `${fileName}.br`),
          brotliCompressSync(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(join(dir, `${fileName}.gz`), gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: the same build works served by the bridge at `/` and loaded from file://.
  base: './',
  plugins: [react(), preloadScript(), compressedCopies()],
  // `npm start` building a stale tree (scripts/build-if-stale.mjs) prints one line of its own, not
  // the file table; warnings and errors still show. `npm run build` keeps Vite's full output.
  logLevel: process.env.STUDIO_BRIDGE_QUIET_BUILD === '1' ? 'warn' : 'info',
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Every page but the Overview is its own chunk (src/shell/routes.ts); the main chunk (React,
    // react-query, zod, the shell and the Overview) is ~474 kB before gzip, ~145 kB after;
    // recharts comes with the Analytics page. Over 500 kB the build warns and a test fails: look
    // for a page's module pulled in by the shell first (the REC indicator once took the whole
    // Takes panel for one formatting function; the Overview's first step, through the Settings
    // hooks, the clip and render contracts: 18 kB).
    chunkSizeWarningLimit: 500,
    // Chromium (the browsers the bridge serves and Electron's window) has <link rel=modulepreload>;
    // Vite's polyfill for other browsers ran on every start (~4 ms of the Overview's first render).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      checks: {
        // The timing report (PLUGIN_TIMINGS) names the slowest plugin whenever plugins take most of
        // a build: here always compressedCopies, whose brotli at quality 11 is the point (done once
        // per build, not per request), so it warned on every loaded start and said nothing new.
        // Only this check is off; every other warning still prints, also in the quiet start build.
        bundlerTimings: false,
      },
      output: {
        codeSplitting: {
          groups: [
            {
              // Modules imported, import by import, from the entry (index.html, main.tsx) run
              // before the first render.
              // Left alone, the bundler puts those a lazy page shares too (zod, the query client,
              // the panels) into small chunks of their own: five requests before the Overview can
              // render, on the browser's six connections, where its preloaded API requests queue.
              // A name for the bundler's timing report: with `name` a function it has none and
              // warned on every build (`codeSplitting.groups[0].name` is a function).
              debugName: 'entry imports',
              name: (id, context) => {
                const seen = new Set<string>();
                const fromEntry = (moduleId: string): boolean => {
                  if (moduleId === MAIN_ENTRY) return true;
                  if (seen.has(moduleId)) return false;
                  seen.add(moduleId);
                  return (context.getModuleInfo(moduleId)?.importers ?? []).some(fromEntry);
                };
                return fromEntry(id) ? 'index' : null;
              },
            },
          ],
        },
      },
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        [PRELOAD_ENTRY]: fileURLToPath(new URL('src/api/transport/preload-start.ts', import.meta.url)),
      },
    },
  },
  server: {
    proxy: Object.fromEntries(bridgePaths.map((path) => [path, { target: bridge, changeOrigin: false }])),
  },
});
