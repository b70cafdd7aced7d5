/**
 * Where the desktop app finds better-sqlite3 built for Electron's ABI (DESIGN §9).
 *
 * node_modules/better-sqlite3 stays built for Node, so the tests and `npm run serve` keep working; the
 * Electron build lives apart and is handed to better-sqlite3 as its `nativeBinding` option:
 *   development  <project>/native/electron-<abi>-<platform>-<arch>/better_sqlite3.node
 *                (made by `node dist/main/desktop/rebuild-native.js`)
 *   packaged     <resources>/native/electron-<abi>-<platform>-<arch>/better_sqlite3.node
 *                (made by the same module as electron-builder's beforePack hook, copied by extraResources)
 * Platform and arch are in the folder name so that builds for several targets can sit side by side.
 *
 * No Electron import: the core calls this under plain Node too, where it answers undefined.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProjectDir } from './project-dir.js';

export const SQLITE_BINARY_NAME = 'better_sqlite3.node';

/** `electron-150-linux-x64`. */
export function nativeFolderName(abi: string, platform: string, arch: string): string {
  return `electron-${abi}-${platform}-${arch}`;
}

/**
 * Whether a compiled addon was built for `abi`: non-N-API addons such as better-sqlite3 export their
 * entry point as `node_register_module_v<abi>`, which is how Node and Electron refuse a wrong build.
 */
export function addonTargetsAbi(binary: Buffer, abi: string): boolean {
  return binary.includes(`node_register_module_v${abi}\0`);
}

export interface NativeBindingContext {
  /** `process.versions.electron`: undefined under plain Node. */
  electronVersion: string | undefined;
  /** `process.versions.modules`: the ABI the running Electron expects. */
  abi: string;
  platform: string;
  arch: string;
  /** True in an installed app, false when run as `electron <project>` (`process.defaultApp`). */
  packaged: boolean;
  /** `process.resourcesPath` (Electron only). */
  resourcesPath: string | undefined;
  /** The project directory (the one with package.json). */
  projectDir: string;
}

export function chooseSqliteNativeBinding(context: NativeBindingContext): string | undefined {
  if (context.electronVersion === undefined) return undefined;
  const base = context.packaged && context.resourcesPath ? context.resourcesPath : context.projectDir;
  const folder = nativeFolderName(context.abi, context.platform, context.arch);
  return path.join(base, 'native', folder, SQLITE_BINARY_NAME);
}

/** A field Electron adds to `process`, read without depending on Electron's type declarations. */
function electronProcessField(name: 'resourcesPath' | 'defaultApp'): unknown {
  return Reflect.get(process, name);
}

/**
 * The `nativeBinding` for better-sqlite3: undefined under plain Node (use its default build), the
 * Electron build's path under Electron. Throws, naming the fix, when that build has not been made.
 */
export function resolveSqliteNativeBinding(): string | undefined {
  if (process.versions.electron === undefined) return undefined;
  const resourcesPath = electronProcessField('resourcesPath');
  const fromProject = electronProcessField('defaultApp') === true;
  const binding = chooseSqliteNativeBinding({
    electronVersion: process.versions.electron,
    abi: process.versions.modules,
    platform: process.platform,
    arch: process.arch,
    packaged: !fromProject,
    resourcesPath: typeof resourcesPath === 'string' ? resourcesPath : undefined,
    projectDir: findProjectDir(path.dirname(fileURLToPath(import.meta.url))),
  });
  if (binding !== undefined && !existsSync(binding)) {
    const fix = fromProject
      ? 'build it with: node dist/main/desktop/rebuild-native.js'
      : 'the installation is incomplete; reinstall Studio Bridge';
    throw new Error(
      `better-sqlite3 for Electron (ABI ${process.versions.modules}) not found at ${binding}; ${fix}`,
    );
  }
  return binding;
}
