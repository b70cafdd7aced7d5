import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { analyzeTranscript } from '../../main/areas/clips/analyze.js';

const distMain = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../dist/main');

/**
 * A module of the bridge as built (`dist/main/<path>`): the code `npm start` and `npm run serve`
 * run, so that is what the benches measure. The TypeScript source, run through tsx as the bench
 * itself is, is slower where it creates functions at run time: tsx keeps every function's name
 * by wrapping its creation (esbuild's keepNames), which made clip analysis 1.5× slower (300 vs
 * 195 ms for three hours, measured side by side); the webhook path moved within the noise.
 * `npm run bench` builds first when a source changed since the last build (scripts/build-if-stale.mjs,
 * as `npm start` does), so it never measures a stale tree.
 */
export async function built<Module>(path: string): Promise<Module> {
  const file = join(distMain, path);
  if (!existsSync(file)) throw new Error(`bench: ${file} is missing: run \`npm run build\``);
  return (await import(pathToFileURL(file).href)) as Module;
}

/** The clip analysis as built: what the bridge's clip worker runs. */
export async function builtClipAnalysis(): Promise<typeof analyzeTranscript> {
  return (await built<{ analyzeTranscript: typeof analyzeTranscript }>('areas/clips/analyze.js'))
    .analyzeTranscript;
}
