import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  childExitCode,
  chooseLaunchMode,
  electronEnv,
  nodeInstallsElectron,
  type ElectronInstallFacts,
} from '../../../main/desktop/launch-mode.js';

const packageDir = path.join('/app', 'node_modules', 'electron');
const binary = path.join(packageDir, 'dist', 'electron');

function facts(
  overrides: Partial<ElectronInstallFacts> = {},
  present: string[] = [binary],
): ElectronInstallFacts {
  return {
    packageDir,
    pathTxt: 'electron',
    overrideDistPath: undefined,
    nodeVersion: '22.12.0',
    exists: (file) => present.includes(file),
    ...overrides,
  };
}

describe('chooseLaunchMode', () => {
  it('runs Electron when path.txt names a binary that exists', () => {
    expect(chooseLaunchMode(facts())).toEqual({ kind: 'electron', electronPath: binary });
  });

  it('reads path.txt as the electron package does (macOS bundle path, stray newline)', () => {
    const mac = path.join(packageDir, 'dist', 'Electron.app/Contents/MacOS/Electron');
    expect(chooseLaunchMode(facts({ pathTxt: 'Electron.app/Contents/MacOS/Electron\n' }, [mac]))).toEqual({
      kind: 'electron',
      electronPath: mac,
    });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    const custom = path.join('/opt', 'electron', 'electron');
    expect(
      chooseLaunchMode(facts({ overrideDistPath: '/opt/electron', pathTxt: undefined }, [custom])),
    ).toEqual({
      kind: 'electron',
      electronPath: custom,
    });
  });

  it('on Node < 22.12, where npm skips Electron, says in one line that the window needs Node ≥ 22.12', () => {
    const mode = chooseLaunchMode(facts({ packageDir: undefined, nodeVersion: '20.20.2' }));
    expect(mode).toEqual({
      kind: 'headless',
      notice:
        'The desktop window needs Node ≥ 22.12 to install Electron (this is Node 20.20.2); serving headless',
    });
  });

  it('on Node ≥ 22.12 without the electron package, says to run npm install', () => {
    expect(chooseLaunchMode(facts({ packageDir: undefined, nodeVersion: '22.12.0' }))).toEqual({
      kind: 'headless',
      notice:
        'Electron is not installed (run npm install on this Node 22.12.0 to get the desktop window); serving headless',
    });
  });

  it('with the package but not its binary, says why and how to fetch it, in one line', () => {
    const noPathTxt = chooseLaunchMode(facts({ pathTxt: undefined }));
    expect(noPathTxt).toEqual({
      kind: 'headless',
      notice:
        'Electron binary not installed here (it was never downloaded: node_modules/electron/path.txt is missing); serving headless — fetch it with: npx install-electron',
    });
    expect(chooseLaunchMode(facts({}, []))).toEqual({
      kind: 'headless',
      notice: `Electron binary not installed here (${binary} does not exist); serving headless — fetch it with: npx install-electron`,
    });
  });

  it('every notice is one line', () => {
    for (const overrides of [
      { packageDir: undefined, nodeVersion: '20.19.0' },
      { packageDir: undefined },
      { pathTxt: undefined },
    ]) {
      const mode = chooseLaunchMode(facts(overrides, []));
      expect(mode.kind === 'headless' && mode.notice).not.toContain('\n');
    }
  });
});

describe('nodeInstallsElectron', () => {
  it('is true from Node 22.12 on (the engines of Electron 45 and its tooling)', () => {
    expect(nodeInstallsElectron('20.19.0')).toBe(false);
    expect(nodeInstallsElectron('20.20.2')).toBe(false);
    expect(nodeInstallsElectron('22.11.9')).toBe(false);
    expect(nodeInstallsElectron('22.12.0')).toBe(true);
    expect(nodeInstallsElectron('v22.23.3')).toBe(true);
    expect(nodeInstallsElectron('24.1.0')).toBe(true);
  });
});

describe('childExitCode', () => {
  it("forwards Electron's exit code, or 128 + signal as a shell would", () => {
    expect(childExitCode(0, null)).toBe(0);
    expect(childExitCode(3, null)).toBe(3);
    expect(childExitCode(null, 'SIGINT')).toBe(130);
    expect(childExitCode(null, 'SIGTERM')).toBe(143);
    expect(childExitCode(null, null)).toBe(1);
  });
});

describe('electronEnv', () => {
  it('drops ELECTRON_RUN_AS_NODE and leaves the caller’s env alone', () => {
    const env = { ELECTRON_RUN_AS_NODE: '1', BRIDGE_PORT: '4100' };
    expect(electronEnv(env)).toEqual({ BRIDGE_PORT: '4100' });
    expect(env.ELECTRON_RUN_AS_NODE).toBe('1');
  });
});
