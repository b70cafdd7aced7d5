import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';

/** Where `npm run test:timings` reads the last run's times (a file per project, rewritten by each run of it). */
const TIMINGS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-results/timings');

export interface FileTiming {
  file: string;
  /** Wall time of the file in its worker: setting up, importing (and starting what it starts at the top), its tests and hooks. */
  ms: number;
  tests: number;
  state: string;
}

/**
 * Writes each project's per-file times to `test-results/timings/<project>.json` at the end of a
 * run; `scripts/test-timings.mjs` prints them, slowest first.
 */
export class TimingsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byProject = new Map<string, FileTiming[]>();
    for (const testModule of testModules) {
      const diagnostic = testModule.diagnostic();
      const timing: FileTiming = {
        file: testModule.relativeModuleId,
        ms: Math.round(
          diagnostic.prepareDuration +
            diagnostic.environmentSetupDuration +
            diagnostic.setupDuration +
            diagnostic.collectDuration +
            diagnostic.duration,
        ),
        tests: [...testModule.children.allTests()].length,
        state: testModule.state(),
      };
      const project = testModule.project.name;
      byProject.set(project, [...(byProject.get(project) ?? []), timing]);
    }
    mkdirSync(TIMINGS_DIR, { recursive: true });
    for (const [project, files] of byProject)
      writeFileSync(
        path.join(TIMINGS_DIR, `${project}.json`),
        `${JSON.stringify({ project, files }, null, 1)}\n`,
      );
  }
}
