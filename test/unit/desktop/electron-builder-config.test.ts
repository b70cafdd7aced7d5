/**
 * electron-builder.yml, checked where electron-builder itself may be absent (Node < 22.12): against
 * the JSON schema of the pinned version (test/fixtures/electron-builder-scheme.json, see its README),
 * and for what the app needs at run time: better-sqlite3's Electron build outside the asar archive
 * where native-binding.ts looks for it, the clip worker unpacked, the icons there and packed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseSqliteNativeBinding } from '../../../main/desktop/native-binding.js';

interface ExtraResource {
  from: string;
  to: string;
  filter: string[];
}
interface BuilderConfig {
  electronVersion: string;
  icon: string;
  files: string[];
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  beforePack: string;
  extraResources: ExtraResource[];
}

const config = load(readFileSync('electron-builder.yml', 'utf8')) as BuilderConfig;
const schema = JSON.parse(readFileSync('test/fixtures/electron-builder-scheme.json', 'utf8')) as object;
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string }>;
};

/** A glob of electron-builder's (`*` within a path segment, `**` across them) as a RegExp. */
function globToRegExp(glob: string): RegExp {
  const pattern = glob
    .split('**')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('.*');
  return new RegExp(`^${pattern}$`);
}

describe('electron-builder.yml', () => {
  let validate: ValidateFunction;
  // The schema is 360 kB: compiling it takes a few seconds, once.
  beforeAll(() => {
    validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
  }, 60_000);

  it("is valid against electron-builder's schema of the pinned version", () => {
    // The fixture is the scheme.json of the app-builder-lib that package-lock.json pins.
    expect(lock.packages['node_modules/app-builder-lib']?.version).toBe('26.17.0');
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('the schema catches a misspelt option (so the check above can fail)', () => {
    expect(validate({ ...config, asarUnpacked: ['dist/**'] })).toBe(false);
    expect(validate({ ...config, asar: 'yes' })).toBe(false);
  });

  it('packs Electron of the version tools/desktop installs', () => {
    expect(config.electronVersion).toBe(lock.packages['node_modules/electron']?.version);
  });

  it("puts better-sqlite3's Electron build outside the asar archive, where the installed app loads it", () => {
    expect(config.asar).toBe(true);
    const resourcesPath = path.join('/opt', 'Studio Bridge', 'resources');
    const loaded = chooseSqliteNativeBinding({
      electronVersion: config.electronVersion,
      abi: '140',
      platform: 'linux',
      arch: 'x64',
      packaged: true,
      resourcesPath,
      projectDir: '/unused',
    })!;
    // extraResources copies <from>/<filtered files> into resources/<to>/, next to (not inside) app.asar.
    const [relative = ''] = [path.relative(resourcesPath, loaded).split(path.sep).join('/')];
    const copied = config.extraResources.some(
      (resource) =>
        relative.startsWith(`${resource.to}/`) &&
        resource.filter.some((glob) => globToRegExp(glob).test(relative.slice(resource.to.length + 1))),
    );
    expect(copied, `${relative} is not among extraResources`).toBe(true);
    // Its Node-ABI build is not packed instead (it would not load in Electron).
    expect(config.files).toContain('!node_modules/better-sqlite3/{build,deps,src}/**');
    // electron-builder's own rebuild would replace the Node build the tests use (see the yml).
    expect(config.npmRebuild).toBe(false);
    expect(config.beforePack).toBe('./dist/main/desktop/rebuild-native.js');
    expect(existsSync('main/desktop/rebuild-native.ts')).toBe(true);
  });

  it('unpacks the clip analyser, which runs in a worker thread (workers cannot load from the asar)', () => {
    expect(
      config.asarUnpack.map(globToRegExp).some((glob) => glob.test('dist/main/areas/clips/worker.js')),
    ).toBe(true);
  });

  it('has its icons: the app icon (512 px PNG) and the tray icons, packed', () => {
    const pngSize = (file: string): [number, number] => {
      const header = readFileSync(file);
      expect(header.subarray(1, 4).toString('latin1')).toBe('PNG');
      return [header.readUInt32BE(16), header.readUInt32BE(20)];
    };
    expect(pngSize(config.icon)).toEqual([512, 512]);
    for (const icon of ['main/desktop/assets/tray.png', 'main/desktop/assets/tray@2x.png']) {
      expect(existsSync(icon)).toBe(true);
      expect(
        config.files.map(globToRegExp).some((glob) => glob.test(icon)),
        icon,
      ).toBe(true);
    }
  });
});
