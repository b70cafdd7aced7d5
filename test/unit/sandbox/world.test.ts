import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWorld, restoreWorld, serializeWorld } from '../../../main/sandbox/common/world.js';
import { WORLD_FILE, WorldKeeper } from '../../../main/sandbox/world-keeper.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

describe('a simulator world round-trips through its file form', () => {
  it('keeps Maps, Sets, Dates, arrays and nested plain objects', () => {
    const at = new Date('2026-12-01T09:00:00.000Z');
    const world = {
      records: { tables: new Map([['SocialPost', new Map([['a1', { seq: 1, attrs: { at } }]])]]), seq: 7 },
      written: new Set(['/a.mkv']),
      posts: [{ id: 'p1', created: at }],
    };
    const back = parseWorld(serializeWorld(world));
    expect(back).toEqual(world);
    expect((back.posts as Array<{ created: unknown }>)[0]!.created).toBeInstanceOf(Date);
  });

  it('restores in place, so what captured the containers at start sees the saved records', () => {
    const tables = new Map<string, number>([['fresh', 1]]);
    const posts: string[] = ['seeded'];
    const store = { tables, seq: 1 };
    const live = { store, posts, added: 'default' };
    restoreWorld(
      live,
      parseWorld(serializeWorld({ store: { tables: new Map([['kept', 2]]), seq: 9 }, posts: ['x'] })),
    );
    expect(live.store).toBe(store);
    expect(tables).toEqual(new Map([['kept', 2]]));
    expect(store.seq).toBe(9);
    expect(posts).toEqual(['x']);
    // A field the saved world predates keeps its fresh default.
    expect(live.added).toBe('default');
  });

  it('refuses text that is not a JSON object', () => {
    expect(() => parseWorld('[1]')).toThrow(/JSON object/);
    expect(() => parseWorld('{')).toThrow();
  });
});

describe('WorldKeeper', () => {
  let dir: TempDir;
  afterEach(() => dir.remove());

  const peerWith = (posts: string[]) => ({ world: { posts } });

  it('writes a 0600 file only when the world changed, and restores it into a new peer', () => {
    dir = tempDir('world-keeper');
    const posts = ['seeded'];
    const keeper = new WorldKeeper({ dir: dir.path, peers: { postsvc: peerWith(posts) } });
    expect(keeper.restore()).toBe(false);
    keeper.save();
    const file = path.join(dir.path, WORLD_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // An unchanged world is not written again (the file removed here stays removed).
    rmSync(file);
    keeper.save();
    expect(existsSync(file)).toBe(false);

    posts.push('operator');
    keeper.stop();
    // No temp file is left behind: the write is a rename.
    expect(readdirSync(dir.path)).toEqual([WORLD_FILE]);

    const restoredPosts: string[] = [];
    const next = new WorldKeeper({ dir: dir.path, peers: { postsvc: peerWith(restoredPosts) } });
    expect(next.restore()).toBe(true);
    expect(restoredPosts).toEqual(['seeded', 'operator']);
  });

  it('sets an unreadable file aside, says so, and lets the demo be seeded again', () => {
    dir = tempDir('world-keeper');
    writeFileSync(path.join(dir.path, WORLD_FILE), '{"format":1,"peers":', { mode: 0o600 });
    const warnings: string[] = [];
    const keeper = new WorldKeeper({
      dir: dir.path,
      peers: { postsvc: peerWith([]) },
      warn: (message) => warnings.push(message),
    });
    expect(keeper.restore()).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/could not be read .* set aside as .*unreadable-\d+/)]);
    expect(existsSync(path.join(dir.path, WORLD_FILE))).toBe(false);
    expect(readdirSync(dir.path)).toEqual([expect.stringMatching(/^sandbox-world\.json\.unreadable-\d+$/)]);
  });

  it('refuses a world file that is a symbolic link (issue #35.5) and never writes through it', () => {
    dir = tempDir('world-keeper');
    const victim = path.join(dir.path, 'victim.json');
    writeFileSync(victim, '{"format":1,"peers":{}}', { mode: 0o644 });
    const link = path.join(dir.path, WORLD_FILE);
    symlinkSync(victim, link);
    const warnings: string[] = [];
    const keeper = new WorldKeeper({
      dir: dir.path,
      peers: { postsvc: peerWith(['seeded']) },
      warn: (message) => warnings.push(message),
    });
    expect(() => keeper.restore()).toThrow(`${link} is a symbolic link`);
    keeper.save();
    expect(readFileSync(victim, 'utf8')).toBe('{"format":1,"peers":{}}');
    expect(warnings).toEqual([expect.stringContaining(`${link} is a symbolic link`)]);
  });
});
