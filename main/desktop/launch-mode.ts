/**
 * What `npm start` runs (DESIGN §9): the Electron app when its binary is installed, else the headless
 * bridge. Pure: main/launch.ts gathers the facts and acts on the answer.
 *
 * The facts mirror how the electron package's own index.js finds its binary (path.txt, written by its
 * install script, names the executable under dist/; ELECTRON_OVERRIDE_DIST_PATH replaces dist/). We do
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
  exists(file: string): boolean;
}

export type LaunchMode = { kind: 'electron'; electronPath: string } | { kind: 'headless'; reason: string };

export function chooseLaunchMode(facts: ElectronInstallFacts): LaunchMode {
  if (facts.packageDir === undefined)
    return { kind: 'headless', reason: 'the electron package is not installed' };
  const executable = facts.pathTxt?.trim();
  let electronPath: string;
  if (facts.overrideDistPath) {
    electronPath = path.join(facts.overrideDistPath, executable || 'electron');
  } else if (executable) {
    electronPath = path.join(facts.packageDir, 'dist', executable);
  } else {
    return {
      kind: 'headless',
      reason: 'its install script never downloaded it: node_modules/electron/path.txt is missing',
    };
  }
  return facts.exists(electronPath)
    ? { kind: 'electron', electronPath }
    : { kind: 'headless', reason: `${electronPath} does not exist` };
}

export function headlessNotice(reason: string): string {
  return `Electron binary not installed here (${reason}); running headless — fetch it with: node node_modules/electron/install.js`;
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
