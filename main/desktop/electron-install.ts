/**
 * The facts `npm start` decides on (launch-mode.ts), read from disk: where the electron package
 * resolves from `fromDir`, its path.txt, ELECTRON_OVERRIDE_DIST_PATH and this Node's version.
 * A module of its own so tests can read them from an install made elsewhere (a temp project).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ElectronInstallFacts } from './launch-mode.js';

export function readElectronInstall(
  fromDir: string,
  env: NodeJS.ProcessEnv = process.env,
): ElectronInstallFacts {
  const require = createRequire(path.join(fromDir, 'package.json'));
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
    overrideDistPath: env.ELECTRON_OVERRIDE_DIST_PATH,
    nodeVersion: process.versions.node,
    exists: existsSync,
  };
}
