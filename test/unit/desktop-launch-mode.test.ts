import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  childExitCode,
  chooseLaunchMode,
  electronEnv,
  headlessNotice,
  type ElectronInstallFacts,
} from '../../main/desktop/launch-mode.js';

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

  it('runs headless, with the reason, when the package, path.txt or the binary is missing', () => {
    expect(chooseLaunchMode(facts({ packageDir: undefined }))).toEqual({
      kind: 'headless',
      reason: 'the electron package is not installed',
    });
    expect(chooseLaunchMode(facts({ pathTxt: undefined }))).toMatchObject({
      kind: 'headless',
      reason: expect.stringContaining('path.txt is missing'),
    });
    expect(chooseLaunchMode(facts({}, []))).toEqual({ kind: 'headless', reason: `${binary} does not exist` });
  });
});

describe('headlessNotice', () => {
  it('is one line that says why and how to fetch the binary', () => {
    const line = headlessNotice('path.txt is missing');
    expect(line).not.toContain('\n');
    expect(line).toBe(
      'Electron binary not installed here (path.txt is missing); running headless — fetch it with: node node_modules/electron/install.js',
    );
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
