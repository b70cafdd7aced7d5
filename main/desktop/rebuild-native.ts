/**
 * Builds better-sqlite3 for Electron's ABI into native/electron-<abi>-<platform>-<arch>/ (the folder
 * native-binding.ts resolves), leaving node_modules/better-sqlite3 alone: that one stays Node's build,
 * for the tests and `npm run serve` (DESIGN §9). Never loaded by the app itself.
 *
 * Run by
 *   - electron-builder, as the `beforePack` hook in electron-builder.yml, once per target platform/arch;
 *   - a developer who has the Electron binary, before `npm start`: `node dist/main/desktop/rebuild-native.js`.
 *
 * Why not electron-builder's own rebuild (`npmRebuild`, with or without `buildDependenciesFromSource`):
 * it runs @electron/rebuild with the project itself as buildPath, replacing node_modules/better-sqlite3's
 * Node build in place; the Node tests then fail with NODE_MODULE_VERSION errors until `npm rebuild`.
 * So electron-builder.yml turns npmRebuild off and this module runs the same tool, @electron/rebuild, on
 * a scratch copy. It fetches better-sqlite3's prebuilt Electron binary when one is published and
 * otherwise compiles against Electron's headers (which needs a C++ toolchain); both need the network.
 *
 * electron-builder and @electron/rebuild are optional dependencies of tools/desktop (they want
 * Node >= 22.12 and are absent on older Node), so the type check on Node 20 cannot see their types:
 * this module describes the little it uses of them (BeforePackContext, ElectronRebuild) and loads
 * @electron/rebuild at run time. `npm run build:native-electron` and `npm run dist` stop before they
 * get here on Node < 22.12 (scripts/packaging-node.mjs).
 *
 * The result is checked for Electron's ABI before it is kept: an npm `nodedir` setting (npm passes it
 * on as npm_config_nodedir) makes node-gyp compile against the local Node's headers instead, silently
 * producing a Node build. That variable is therefore left out while building.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { addonTargetsAbi, nativeFolderName, SQLITE_BINARY_NAME } from './native-binding.js';
import { findProjectDir } from './project-dir.js';

export interface NativeBuildTarget {
  projectDir: string;
  electronVersion: string;
  platform: NodeJS.Platform;
  /** As `process.arch` names it at run time (`arm`, not electron-builder's `armv7l`). */
  arch: string;
}

/** What this module uses of the context electron-builder passes its `beforePack` hook. */
export interface BeforePackContext {
  packager: {
    projectDir: string;
    info: { framework: { version: string } };
    platform: { nodeName: NodeJS.Platform };
  };
  /** electron-builder's `Arch` enum value. */
  arch: number;
}

/** The part of @electron/rebuild's API used here: `rebuild(options)`, a promise. */
interface ElectronRebuild {
  rebuild(options: {
    buildPath: string;
    projectRootPath: string;
    electronVersion: string;
    platform: NodeJS.Platform;
    arch: string;
    onlyModules: string[];
    force: boolean;
  }): Promise<void>;
}

/** A specifier in a variable: TypeScript then does not look for the package's types (see above). */
const ELECTRON_REBUILD = '@electron/rebuild';

interface PackageJson {
  version: string;
}

function readJson(file: string): PackageJson {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
}

/** The ABI of the Electron to build for, from the installed electron package (which must be that version). */
function electronAbi(projectDir: string, electronVersion: string): string {
  const require = createRequire(path.join(projectDir, 'package.json'));
  const electronDir = path.dirname(require.resolve('electron/package.json'));
  const installed = readJson(path.join(electronDir, 'package.json')).version;
  if (installed !== electronVersion) {
    throw new Error(
      `building for Electron ${electronVersion} but the electron package is ${installed}: align them`,
    );
  }
  return readFileSync(path.join(electronDir, 'abi_version'), 'utf8').trim();
}

/** Runs `work` with npm's nodedir setting out of the environment (child processes inherit process.env). */
async function withoutNodedir<T>(work: () => Promise<T>): Promise<T> {
  const saved = Object.entries(process.env).filter(([name]) => name.toLowerCase() === 'npm_config_nodedir');
  for (const [name] of saved) delete process.env[name];
  try {
    return await work();
  } finally {
    for (const [name, value] of saved) process.env[name] = value;
  }
}

/** Returns the path of the built binary. */
export async function buildSqliteForElectron(target: NativeBuildTarget): Promise<string> {
  const { projectDir, electronVersion, platform, arch } = target;
  const abi = electronAbi(projectDir, electronVersion);
  const folder = nativeFolderName(abi, platform, arch);
  const sourceDir = path.join(projectDir, 'node_modules', 'better-sqlite3');
  // Inside the project so that @electron/rebuild, walking up from the copy, finds prebuild-install and
  // node-gyp in the project's node_modules.
  const scratchDir = path.join(projectDir, 'native', '.build', folder);
  const copyDir = path.join(scratchDir, 'node_modules', 'better-sqlite3');
  rmSync(scratchDir, { recursive: true, force: true });
  cpSync(sourceDir, copyDir, {
    recursive: true,
    filter: (source) => path.relative(sourceDir, source).split(path.sep)[0] !== 'build',
  });
  const version = readJson(path.join(sourceDir, 'package.json')).version;
  writeFileSync(
    path.join(scratchDir, 'package.json'),
    JSON.stringify({ name: 'native-build', private: true, dependencies: { 'better-sqlite3': version } }),
  );

  try {
    const { rebuild } = (await import(ELECTRON_REBUILD)) as ElectronRebuild;
    await withoutNodedir(() =>
      rebuild({
        buildPath: scratchDir,
        projectRootPath: scratchDir,
        electronVersion,
        platform,
        arch,
        onlyModules: ['better-sqlite3'],
        force: true,
      }),
    );
    const built = path.join(copyDir, 'build', 'Release', SQLITE_BINARY_NAME);
    if (!addonTargetsAbi(readFileSync(built), abi)) {
      throw new Error(
        `${built} was not built for Electron's ABI ${abi} (is a nodedir or node-gyp setting in force?)`,
      );
    }
    const outputDir = path.join(projectDir, 'native', folder);
    mkdirSync(outputDir, { recursive: true });
    const output = path.join(outputDir, SQLITE_BINARY_NAME);
    copyFileSync(built, output);
    return output;
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** electron-builder's `Arch` enum (builder-util), by value: ia32 = 0, x64 = 1, armv7l = 2, arm64 = 3, universal = 4. */
const BUILDER_ARCHES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'] as const;

/** electron-builder's architecture, named as `process.arch` reports it at run time. */
export function runtimeArch(arch: number): string {
  const name = BUILDER_ARCHES[arch];
  if (name === undefined) throw new Error(`beforePack: unknown electron-builder architecture ${arch}`);
  if (name === 'universal') throw new Error('beforePack: a universal build is packed per architecture first');
  return name === 'armv7l' ? 'arm' : name;
}

/** electron-builder `beforePack` hook (its PackContext; electron-builder exports it as AfterPackContext). */
export default async function beforePack(context: BeforePackContext): Promise<void> {
  const output = await buildSqliteForElectron({
    projectDir: context.packager.projectDir,
    electronVersion: context.packager.info.framework.version,
    platform: context.packager.platform.nodeName,
    arch: runtimeArch(context.arch),
  });
  console.log(`  • better-sqlite3 for Electron  file=${path.relative(context.packager.projectDir, output)}`);
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const projectDir = findProjectDir(path.dirname(fileURLToPath(import.meta.url)));
  const electronVersion = readJson(
    createRequire(path.join(projectDir, 'package.json')).resolve('electron/package.json'),
  ).version;
  buildSqliteForElectron({
    projectDir,
    electronVersion,
    platform: process.platform,
    arch: process.arch,
  }).then(
    (output) => console.log(`better-sqlite3 for Electron ${electronVersion}: ${output}`),
    (error: unknown) => {
      console.error(
        `could not build better-sqlite3 for Electron: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exitCode = 1;
    },
  );
}
