import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/**
 * `npm start` builds only a stale tree (issue #14.10): scripts/build-if-stale.mjs, run in a scratch
 * project whose `build` script is this repository's, with build:main and build:renderer replaced by
 * fakes that write dist/ and count the builds. A tree built with `npm run build` (as `npm test` does)
 * must count as up to date too.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const realBuild = (
  JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts.build!;

let project: TempDir | undefined;
afterEach(() => project?.remove());

function scratchProject(): string {
  project = tempDir('build-if-stale');
  const root = project.path;
  mkdirSync(path.join(root, 'scripts'));
  copyFileSync(
    path.join(repoRoot, 'scripts/build-if-stale.mjs'),
    path.join(root, 'scripts/build-if-stale.mjs'),
  );
  mkdirSync(path.join(root, 'main'));
  writeFileSync(path.join(root, 'main/app.ts'), 'export {};\n');
  const fake = (file: string) =>
    `node -e "const fs=require('fs');fs.mkdirSync(require('path').dirname('${file}'),{recursive:true});fs.writeFileSync('${file}','');fs.appendFileSync('builds.log','${file}\\n')"`;
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({
      name: 'scratch',
      private: true,
      scripts: {
        build: realBuild,
        'build:main': fake('dist/main/launch.js'),
        'build:renderer': fake('dist/renderer/index.html'),
      },
    }),
  );
  return root;
}

const builds = (root: string): number =>
  readFileSync(path.join(root, 'builds.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('launch.js')).length;

function startCheck(root: string): string {
  return execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root, encoding: 'utf8' });
}

describe('build-if-stale', () => {
  it('builds a stale tree once, then starts straight away until a source changes', () => {
    const root = scratchProject();
    startCheck(root);
    expect(builds(root)).toBe(1);
    expect(startCheck(root)).toContain('build is up to date');
    expect(builds(root)).toBe(1);

    writeFileSync(path.join(root, 'main/added.ts'), 'export const x = 1;\n');
    startCheck(root);
    expect(builds(root)).toBe(2);
  });

  it('counts a tree built with `npm run build` as up to date', () => {
    const root = scratchProject();
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'ignore' });
    expect(builds(root)).toBe(1);
    expect(startCheck(root)).toContain('build is up to date');
    expect(builds(root)).toBe(1);
  });
});
