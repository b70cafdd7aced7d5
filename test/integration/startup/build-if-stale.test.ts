import { execFileSync, spawnSync } from 'node:child_process';
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
  // Each fake logs the file it built and whether it was asked to be quiet (as Vite is by the start).
  const fake = (file: string) =>
    `node -e "const fs=require('fs');fs.mkdirSync(require('path').dirname('${file}'),{recursive:true});fs.writeFileSync('${file}','');fs.appendFileSync('builds.log','${file} quiet='+process.env.STUDIO_BRIDGE_QUIET_BUILD+'\\n')"`;
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

const builtLine = /^studio-bridge: sources changed, bridge and dashboard built in \d+\.\d s\n$/;

describe('build-if-stale', () => {
  it('builds a stale tree once, then starts straight away until a source changes', () => {
    const root = scratchProject();
    // One line for the build (issue #30.6), the renderer built quietly: not Vite's file table.
    expect(startCheck(root)).toMatch(builtLine);
    expect(builds(root)).toBe(1);
    expect(readFileSync(path.join(root, 'builds.log'), 'utf8')).toContain('dist/renderer/index.html quiet=1');
    expect(startCheck(root)).toContain('build is up to date');
    expect(builds(root)).toBe(1);

    writeFileSync(path.join(root, 'main/added.ts'), 'export const x = 1;\n');
    expect(startCheck(root)).toMatch(builtLine);
    expect(builds(root)).toBe(2);
  });

  it('counts a tree built with `npm run build` as up to date', () => {
    const root = scratchProject();
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'ignore' });
    expect(builds(root)).toBe(1);
    // `npm run build` keeps Vite's normal output.
    expect(readFileSync(path.join(root, 'builds.log'), 'utf8')).toContain(
      'dist/renderer/index.html quiet=undefined',
    );
    expect(startCheck(root)).toContain('build is up to date');
    expect(builds(root)).toBe(1);
  });
});

describe('the dashboard build as `npm start` runs it', () => {
  it('prints nothing at all: no bundler warning (codeSplitting.groups[0].name), no file table', () => {
    const out = tempDir('quiet-vite-build');
    // The environment of `npm start`: not vitest's NODE_ENV=test (Vite would bundle React's development build).
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')),
    );
    try {
      const vite = spawnSync(
        process.execPath,
        [
          path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
          'build',
          '--config',
          'renderer/vite.config.ts',
          '--outDir',
          out.path,
          '--emptyOutDir',
        ],
        { cwd: repoRoot, encoding: 'utf8', env: { ...env, STUDIO_BRIDGE_QUIET_BUILD: '1' } },
      );
      expect(vite.status, vite.stderr).toBe(0);
      expect(vite.stdout + vite.stderr).toBe('');
      expect(readFileSync(path.join(out.path, 'index.html'), 'utf8')).toContain('<script');
    } finally {
      out.remove();
    }
  }, 300_000);
});
