/**
 * What `npm start` runs (DESIGN §9): the Electron app when its binary is installed, else the headless
 * bridge, with one line saying why. Pure: main/launch.ts gathers the facts and acts on the answer.
 *
 * Electron 45 and its tooling want Node >= 22.12 (their `engines`), so they are optional dependencies
 * (tools/desktop/package.json): npm skips them, quietly, on older Node. There the reason to give is the
 * Node version, not a missing download.
 *
 * The facts mirror how the electron package's own index.js finds its binary (path.txt, written by its
 * install.js when it downloads the binary, names the executable under dist/; ELECTRON_OVERRIDE_DIST_PATH replaces dist/). We do
 * not `require('electron')` to ask it: when the binary is missing, that require runs the download
 * synchronously with inherited stdio before throwing "Electron failed to install correctly", which here
 * means a network attempt and a stack trace instead of one line.
 */
import { constants } from 'node:os';
import path from 'node:path';

export interface ElectronInstallFacts {
  /** Directory of the installed electron package; undefined when it does not resolve. */
  packageDir: string | undefined;
  /** Contents of its path.txt; undefined when the file is absent. */
  pathTxt: string | undefined;
  /** ELECTRON_OVERRIDE_DIST_PATH. */
  overrideDistPath: string | undefined;
  /** `process.versions.node`, e.g. "20.20.2". */
  nodeVersion: string;
  exists(file: string): boolean;
}

/** `notice` is the one line `npm start` prints before serving headless. */
export type LaunchMode = { kind: 'electron'; electronPath: string } | { kind: 'headless'; notice: string };

/** The oldest Node that npm installs Electron 45 and its tooling on (their `engines`: >= 22.12.0). */
export const DESKTOP_MIN_NODE = '22.12';

/** True when `version` (as in process.versions.node) is at least DESKTOP_MIN_NODE. */
export function nodeInstallsElectron(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = DESKTOP_MIN_NODE.split('.').map(Number);
  return major !== minMajor ? major > minMajor : minor >= minMinor;
}

export function chooseLaunchMode(facts: ElectronInstallFacts): LaunchMode {
  if (facts.packageDir === undefined) {
    return {
      kind: 'headless',
      notice: nodeInstallsElectron(facts.nodeVersion)
        ? `Electron is not installed (run npm install on this Node ${facts.nodeVersion} to get the desktop window); serving headless`
        : `The desktop window needs Node ≥ ${DESKTOP_MIN_NODE} to install Electron (this is Node ${facts.nodeVersion}); serving headless`,
    };
  }
  const executable = facts.pathTxt?.trim();
  let electronPath: string;
  if (facts.overrideDistPath) {
    electronPath = path.join(facts.overrideDistPath, executable || 'electron');
  } else if (executable) {
    electronPath = path.join(facts.packageDir, 'dist', executable);
  } else {
    return {
      kind: 'headless',
      notice: binaryMissing('it was never downloaded: node_modules/electron/path.txt is missing'),
    };
  }
  return facts.exists(electronPath)
    ? { kind: 'electron', electronPath }
    : { kind: 'headless', notice: binaryMissing(`${electronPath} does not exist`) };
}

/**
 * The electron package is there but not its binary: `npm install`'s postinstall
 * (scripts/fetch-electron.mjs) could not download it, offline for instance. `install-electron` is the
 * electron package's own bin for that download.
 */
function binaryMissing(reason: string): string {
  return `Electron binary not installed here (${reason}); serving headless — fetch it with: npx install-electron`;
}

/** The launcher's exit code for Electron's: its own code, or 128 + signal number as a shell reports it. */
export function childExitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : constants.signals[signal];
  return number === undefined ? 1 : 128 + number;
}

/** The child's environment: ELECTRON_RUN_AS_NODE inherited from a parent would make Electron act as Node. */
export function electronEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ELECTRON_RUN_AS_NODE: _ignored, ...rest } = env;
  return rest;
}
