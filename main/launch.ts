/**
 * `npm start` (after `npm run build`): `node dist/main/launch.js`. Starts the desktop app when the
 * Electron binary is installed, else says why in one line (on Node < 22.12: npm does not install
 * Electron there) and serves headless in this process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readElectronInstall } from './desktop/electron-install.js';
import { relaunchArgsForJsFlags } from './desktop/js-flags.js';
import { childExitCode, chooseLaunchMode, electronEnv } from './desktop/launch-mode.js';
import { findProjectDir } from './desktop/project-dir.js';

function runElectron(electronPath: string): void {
  // The project directory, not dist/main/desktop/main.js: Electron then reads package.json (its `main`
  // is that file), so the app's name, version and user-data folder are Studio Bridge's, not Electron's.
  const appDir = findProjectDir(path.dirname(fileURLToPath(import.meta.url)));
  // --js-flags reaches the main process (where the bridge runs) only on Electron's command line: the
  // same arguments the installed app relaunches itself with (desktop/js-flags.ts).
  const child = spawn(electronPath, relaunchArgsForJsFlags([appDir], {}) ?? [appDir], {
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

const mode = chooseLaunchMode(readElectronInstall(path.dirname(fileURLToPath(import.meta.url))));
if (mode.kind === 'electron') runElectron(mode.electronPath);
else await runHeadless(mode.notice);
