/**
 * `npm start` (after `npm run build`): `node dist/main/launch.js`. Starts the desktop app when the
 * Electron binary is installed, else says why in one line (on Node < 22.12: npm does not install
 * Electron there) and serves headless in this process.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  childExitCode,
  chooseLaunchMode,
  electronEnv,
  type ElectronInstallFacts,
} from './desktop/launch-mode.js';
import { findProjectDir } from './desktop/project-dir.js';
import { BRIDGE_V8_FLAGS } from './kernel/v8-flags.js';

function readElectronInstall(): ElectronInstallFacts {
  const require = createRequire(import.meta.url);
  let packageDir: string | undefined;
  try {
    packageDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    packageDir = undefined;
  }
  const pathFile = packageDir === undefined ? undefined : path.join(packageDir, 'path.txt');
  return {
    packageDir,
    pathTxt: pathFile !== undefined && existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : undefined,
    overrideDistPath: process.env.ELECTRON_OVERRIDE_DIST_PATH,
    nodeVersion: process.versions.node,
    exists: existsSync,
  };
}

function runElectron(electronPath: string): void {
  // The project directory, not dist/main/desktop/main.js: Electron then reads package.json (its `main`
  // is that file), so the app's name, version and user-data folder are Studio Bridge's, not Electron's.
  const appDir = findProjectDir(path.dirname(fileURLToPath(import.meta.url)));
  // --js-flags reaches the main process (where the bridge runs) only on Electron's command line.
  const child = spawn(electronPath, [`--js-flags=${BRIDGE_V8_FLAGS.join(' ')}`, appDir], {
    stdio: 'inherit',
    env: electronEnv(process.env),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => {
    console.error(`could not start Electron: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(childExitCode(code, signal)));
}

async function runHeadless(notice: string): Promise<void> {
  console.error(notice);
  const { runCli } = await import('./cli.js');
  process.exitCode = await runCli(['serve']);
}

const mode = chooseLaunchMode(readElectronInstall());
if (mode.kind === 'electron') runElectron(mode.electronPath);
else await runHeadless(mode.notice);
