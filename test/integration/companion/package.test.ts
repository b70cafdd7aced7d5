import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { COMPANION_NODE_VERSION, startCompanionHost } from '../../support/companion/client.js';
import { nodeFromRegistry, registryNodeRuns } from '../../support/node-binary.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/**
 * The archive Companion imports (issue #29.1): the module compiled (tsc) and packaged by
 * @companion-module/tools' companion-module-build on Node 22, as `npm run package -w
 * integrations/companion` does. The archive's own main.js is then loaded by the test host and
 * connects to a real bridge: what Companion would run is what works.
 */
const moduleDir = path.resolve('integrations/companion');
const BUILD_TIMEOUT = 120_000;

describe.skipIf(!registryNodeRuns)('the packaged module', () => {
  let out: TempDir;
  let listing: string[];
  let bridge: TestBridge | undefined;

  beforeAll(() => {
    out = tempDir('companion-package');
    const node22 = nodeFromRegistry(COMPANION_NODE_VERSION);
    execFileSync(
      process.execPath,
      [path.resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: moduleDir,
      },
    );
    // `npm run package`'s steps: the manifest from package.json, tsc, companion-module-build.
    execFileSync(node22, ['scripts/write-manifest.mjs'], { cwd: moduleDir });
    execFileSync(
      node22,
      [
        path.resolve('node_modules/@companion-module/tools/dist/scripts/build-connection.js'),
        '--output',
        path.join(out.path, 'studio-bridge'),
      ],
      { cwd: moduleDir, stdio: 'pipe' },
    );
    execFileSync('tar', ['xzf', 'studio-bridge.tgz'], { cwd: out.path });
    listing = execFileSync('tar', ['tzf', 'studio-bridge.tgz'], { cwd: out.path, encoding: 'utf8' })
      .trim()
      .split('\n');
  }, BUILD_TIMEOUT);
  afterAll(async () => {
    await bridge?.close();
    out?.remove();
  });

  it('holds the bundle and a manifest stamped with the base version it was built on', () => {
    expect(listing.sort()).toEqual(
      [
        'studio-bridge/',
        'studio-bridge/companion/',
        'studio-bridge/companion/HELP.md',
        'studio-bridge/companion/manifest.json',
        'studio-bridge/main.js',
        'studio-bridge/package.json',
      ].sort(),
    );
    const manifest = JSON.parse(
      readFileSync(path.join(out.path, 'studio-bridge/companion/manifest.json'), 'utf8'),
    );
    const base = JSON.parse(readFileSync('node_modules/@companion-module/base/package.json', 'utf8'));
    expect(manifest).toMatchObject({
      id: 'studio-bridge',
      type: 'connection',
      version: JSON.parse(readFileSync(path.join(moduleDir, 'package.json'), 'utf8')).version,
      runtime: { type: 'node22', api: 'nodejs-ipc', apiVersion: base.version, entrypoint: '../main.js' },
    });
  });

  it('is one name in Companion’s lists, and names the repository and maintainers package.json names', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(out.path, 'studio-bridge/companion/manifest.json'), 'utf8'),
    );
    const pkg = JSON.parse(readFileSync(path.join(moduleDir, 'package.json'), 'utf8'));
    // Companion 4.3 lists a connection module by its name unless that is its id, then as
    // "<manufacturer>: <products>" ("Studio Bridge: Studio Bridge").
    expect(manifest).toMatchObject({
      name: 'Studio Bridge',
      manufacturer: 'Studio Bridge',
      shortname: 'bridge',
    });
    expect(manifest.name).not.toBe(manifest.id);
    expect(manifest.repository).toBe(pkg.repository.url);
    expect(manifest.bugs).toBe(pkg.bugs.url);
    expect(manifest.maintainers).toEqual([{ name: pkg.author.name, email: pkg.author.email }]);
  });

  it("runs: the archive's main.js, loaded by the host, connects to a bridge", async () => {
    bridge = await startTestBridge({}, { areas: ['recorder', 'health'] });
    const host = startCompanionHost(path.join(out.path, 'studio-bridge/main.js'));
    try {
      await host.init(bridge.url, TEST_API_KEY);
      await host.until((h) => h.status()?.status === 'ok', 20_000);
      await host.runAction('set_filename', { filename: 'packaged_ep1' });
      expect((await bridge.call('GET', '/api/recorder/filename')).body.filename).toBe('packaged_ep1');
    } finally {
      await host.close();
    }
  });
});
