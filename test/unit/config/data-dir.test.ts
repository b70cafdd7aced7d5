import { chmodSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { folderRisk, modesApply, prepareDataDir } from '../../../main/config/data-dir.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/*
 * Issue #35.5: the data dir is resolved once (a link to another disk is allowed); on POSIX a data
 * dir that others can write, or that another non-root user owns, is refused, and so is a folder
 * above it that others can write without the sticky bit. On Windows and on filesystems that keep
 * no modes, no mode check.
 */

const dirs: TempDir[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});
const scratch = () => {
  const dir = tempDir('data-dir');
  dirs.push(dir);
  return realpathSync(dir.path);
};

const me = { uid: 1000, name: 'studio' };
const folder = (mode: number, uid = 1000) => ({ path: '/srv/data', mode: 0o040000 | mode, uid });

describe('folderRisk', () => {
  it('the data dir: only its owner (or root) may write in it', () => {
    expect(folderRisk(folder(0o700), 'data dir', me)).toBeNull();
    expect(folderRisk(folder(0o755), 'data dir', me)).toBeNull();
    expect(folderRisk(folder(0o755, 0), 'data dir', me)).toBeNull();
    expect(folderRisk(folder(0o775), 'data dir', me)).toBe(
      'other users can write in it (mode 775); make it yours alone: chmod go-w /srv/data',
    );
    expect(folderRisk(folder(0o1777), 'data dir', me)).toBe(
      'other users can write in it (mode 1777); make it yours alone: chmod go-w /srv/data',
    );
    expect(folderRisk(folder(0o700, 1001), 'data dir', me)).toBe(
      'it belongs to another user (uid 1001); run the bridge as that user, or make the folder yours: chown studio /srv/data',
    );
  });

  it('a folder above: writable by others only with the sticky bit (like /tmp)', () => {
    expect(folderRisk(folder(0o1777, 0), 'above', me)).toBeNull();
    expect(folderRisk(folder(0o755, 0), 'above', me)).toBeNull();
    expect(folderRisk(folder(0o777, 0), 'above', me)).toBe(
      'other users can write in /srv/data (mode 777), so they could replace it; use a data dir under folders only you (or root) can write, or chmod go-w /srv/data',
    );
    expect(folderRisk(folder(0o755, 1001), 'above', me)).toBe(
      '/srv/data belongs to another user (uid 1001), who could replace it; use a data dir under folders only you (or root) own',
    );
  });
});

describe('modesApply', () => {
  it('not on Windows, nor where a file made 0600 does not stay 0600 (FAT, exFAT, some network shares)', () => {
    expect(modesApply('linux', 0o100600)).toBe(true);
    expect(modesApply('darwin', 0o100600)).toBe(true);
    expect(modesApply('win32', 0o100600)).toBe(false);
    expect(modesApply('linux', 0o100755)).toBe(false);
    expect(modesApply('linux', 0o100777)).toBe(false);
  });
});

describe('prepareDataDir', () => {
  it('resolves a data dir that is a link once, and says it was one', () => {
    const root = scratch();
    const target = path.join(root, 'disk');
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, path.join(root, 'data'));
    expect(prepareDataDir(path.join(root, 'data'))).toEqual({
      dir: target,
      linkedFrom: path.join(root, 'data'),
      problem: null,
    });
    expect(prepareDataDir(target)).toEqual({ dir: target, linkedFrom: null, problem: null });
  });

  it.skipIf(process.platform === 'win32')('refuses a data dir others can write', () => {
    const dir = path.join(scratch(), 'data');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(prepareDataDir(dir).problem).toMatch(/^other users can write in it \(mode 777\)/);
  });
});
