import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../main/config/config.js';
import {
  defaultPublishRoutes,
  publishRouteTable,
  readPublishRoutesSource,
} from '../../../main/config/publish-routes.js';
import { chooseRoute, isPrimaryPlatform, routeKey } from '../../../main/areas/publishing/plan.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

const dirs: TempDir[] = [];
const freshDir = () => {
  const dir = tempDir('routes');
  dirs.push(dir);
  return dir.path;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ env: { BRIDGE_DATA_DIR: freshDir(), BRIDGE_API_KEY: 'k'.repeat(20), ...env } });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
}

describe('publish route table (DESIGN §6.4)', () => {
  it('has the default table of DESIGN §6.4: Streamhost depends on Videosite', () => {
    expect(publishRouteTable.parse(defaultPublishRoutes)).toEqual(defaultPublishRoutes);
    expect(defaultPublishRoutes.Streamhost).toEqual({
      livestream: '/streamhost/livestream',
      upload: '/streamhost/upload',
      dependsOn: 'Videosite',
    });
    expect(
      loadConfig({ env: { BRIDGE_DATA_DIR: freshDir(), BRIDGE_API_KEY: 'k'.repeat(20) } }).publishRoutes,
    ).toEqual(defaultPublishRoutes);
  });

  it('refuses self-dependencies, chains and unknown keys, one line each', () => {
    expect(issuesOf({ PUBLISH_ROUTES: '{"A":{"livestream":"/a","upload":"/b","dependsOn":"A"}}' })).toEqual([
      'PUBLISH_ROUTES.A.dependsOn: a dependency must be a primary platform (one level deep, no cycles)',
    ]);
    const chain = {
      A: { livestream: '/a/l', upload: '/a/u' },
      B: { livestream: '/b/l', upload: '/b/u', dependsOn: 'A' },
      C: { livestream: '/c/l', upload: '/c/u', dependsOn: 'B' },
    };
    expect(issuesOf({ PUBLISH_ROUTES: JSON.stringify(chain) })).toEqual([
      'PUBLISH_ROUTES.C.dependsOn: a dependency must be a primary platform (one level deep, no cycles)',
    ]);
    const extra = issuesOf({ PUBLISH_ROUTES: '{"A":{"livestream":"/a","upload":"/b","region":"eu"}}' });
    expect(extra).toHaveLength(1);
    expect(extra[0]).toMatch(/^PUBLISH_ROUTES\.A: /);
    expect(issuesOf({ PUBLISH_ROUTES: '{"A":{"livestream":"/a","upload":"/b"' })[0]).toMatch(
      /^PUBLISH_ROUTES: not valid JSON/,
    );
  });

  it('reads the table from a file path as well as inline JSON', () => {
    const file = path.join(freshDir(), 'routes.json');
    const table = { Podcast: { livestream: '/podcast/live', upload: '/podcast/episodes' } };
    writeFileSync(file, JSON.stringify(table));
    expect(readPublishRoutesSource(file)).toEqual(table);
    expect(readPublishRoutesSource(`  ${JSON.stringify(table)}`)).toEqual(table);
    const config = loadConfig({
      env: { BRIDGE_DATA_DIR: freshDir(), BRIDGE_API_KEY: 'k'.repeat(20), PUBLISH_ROUTES: file },
    });
    expect(config.publishRoutes).toEqual(table);
  });
});

describe('chooseRoute', () => {
  it('takes the livestream path for publishType Livestream and the upload path for anything else', () => {
    expect(chooseRoute(defaultPublishRoutes, 'Videosite', 'Livestream')).toEqual({
      ok: true,
      platform: 'Videosite',
      kind: 'livestream',
      path: '/videosite/livestream',
      dependsOn: null,
    });
    for (const type of ['Upload', 'Premiere', null]) {
      expect(chooseRoute(defaultPublishRoutes, 'Altvideo', type)).toMatchObject({
        kind: 'upload',
        path: '/altvideo/upload',
      });
    }
    expect(chooseRoute(defaultPublishRoutes, 'Streamhost', 'Livestream')).toMatchObject({
      path: '/streamhost/livestream',
      dependsOn: 'Videosite',
    });
  });

  it('matches platform labels ignoring case, and names a platform without a route', () => {
    expect(routeKey(defaultPublishRoutes, 'videosite')).toBe('Videosite');
    expect(chooseRoute(defaultPublishRoutes, 'STREAMHOST', 'livestream')).toMatchObject({
      ok: true,
      platform: 'Streamhost',
    });
    expect(chooseRoute(defaultPublishRoutes, 'Podcast', 'Upload')).toEqual({
      ok: false,
      error: 'no route for platform Podcast',
    });
    expect(chooseRoute(defaultPublishRoutes, null, 'Upload')).toEqual({
      ok: false,
      error: 'no route for platform (none)',
    });
    // Inherited object keys are not routes.
    expect(chooseRoute(defaultPublishRoutes, 'constructor', 'Upload').ok).toBe(false);
  });

  it('knows which platforms others depend on', () => {
    expect(isPrimaryPlatform(defaultPublishRoutes, 'Videosite')).toBe(true);
    expect(isPrimaryPlatform(defaultPublishRoutes, 'Altvideo')).toBe(false);
    expect(isPrimaryPlatform(defaultPublishRoutes, 'Streamhost')).toBe(false);
  });
});
