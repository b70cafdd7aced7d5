import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addonTargetsAbi,
  chooseSqliteNativeBinding,
  nativeFolderName,
  resolveSqliteNativeBinding,
  type NativeBindingContext,
} from '../../../main/desktop/native-binding.js';
import { findProjectDir } from '../../../main/desktop/project-dir.js';

const project = path.join('/home', 'studio', 'studio-bridge');
const resources = path.join('/opt', 'Studio Bridge', 'resources');

const electronDev: NativeBindingContext = {
  electronVersion: '45.4.1',
  abi: '150',
  platform: 'linux',
  arch: 'x64',
  packaged: false,
  resourcesPath: path.join(project, 'node_modules', 'electron', 'dist', 'resources'),
  projectDir: project,
};

describe('chooseSqliteNativeBinding', () => {
  it("uses better-sqlite3's own (Node) build under plain Node", () => {
    expect(
      chooseSqliteNativeBinding({ ...electronDev, electronVersion: undefined, abi: '115' }),
    ).toBeUndefined();
  });

  it('uses the project’s native/ folder when Electron runs the project', () => {
    expect(chooseSqliteNativeBinding(electronDev)).toBe(
      path.join(project, 'native', 'electron-150-linux-x64', 'better_sqlite3.node'),
    );
  });

  it('uses resources/native/ in an installed app', () => {
    const packaged = {
      ...electronDev,
      packaged: true,
      resourcesPath: resources,
      platform: 'win32',
      arch: 'arm64',
    };
    expect(chooseSqliteNativeBinding(packaged)).toBe(
      path.join(resources, 'native', 'electron-150-win32-arm64', 'better_sqlite3.node'),
    );
  });
});

describe('resolveSqliteNativeBinding', () => {
  it('answers undefined in these (Node) tests, so the store keeps its default build', () => {
    expect(process.versions.electron).toBeUndefined();
    expect(resolveSqliteNativeBinding()).toBeUndefined();
  });
});

describe('addonTargetsAbi', () => {
  it("reads the ABI from the installed better-sqlite3 build's entry point", () => {
    const packageJson = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
    const binary = readFileSync(
      path.join(path.dirname(packageJson), 'build', 'Release', 'better_sqlite3.node'),
    );
    expect(addonTargetsAbi(binary, process.versions.modules)).toBe(true);
    expect(addonTargetsAbi(binary, '150')).toBe(false);
  });

  it('does not take a longer ABI number for a shorter one', () => {
    const fake = Buffer.from('\0_node_register_module_v1150\0', 'latin1');
    expect(addonTargetsAbi(fake, '1150')).toBe(true);
    expect(addonTargetsAbi(fake, '115')).toBe(false);
  });
});

describe('nativeFolderName', () => {
  it('names ABI, platform and arch, so builds for several targets sit side by side', () => {
    expect(nativeFolderName('150', 'darwin', 'arm64')).toBe('electron-150-darwin-arm64');
  });
});

describe('findProjectDir', () => {
  it('walks up from dist/main/desktop to the folder with package.json', () => {
    const exists = (file: string) => file === path.join(project, 'package.json');
    expect(findProjectDir(path.join(project, 'dist', 'main', 'desktop'), exists)).toBe(project);
  });

  it('fails clearly when there is none', () => {
    expect(() => findProjectDir(path.join(project, 'dist'), () => false)).toThrow(/no package.json/);
  });
});
