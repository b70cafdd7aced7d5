import { readFileSync, statSync, symlinkSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireDataDirLock,
  DataDirInUseError,
  isProcessAlive,
  parseLock,
} from '../../../main/kernel/data-dir-lock.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

const dirs: TempDir[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function fresh(): string {
  const dir = tempDir('data-dir-lock');
  dirs.push(dir);
  return dir.path;
}

const at = (iso: string) => () => new Date(iso);
const lockText = (dir: string) => readFileSync(path.join(dir, 'bridge.lock'), 'utf8');
const errno = (code: string) => Object.assign(new Error(code), { code });

describe('parseLock', () => {
  it('reads what the lock holds', () => {
    expect(
      parseLock('{"pid":42,"url":"http://127.0.0.1:4100","startedAt":"2024-01-01T00:00:00.000Z"}\n'),
    ).toEqual({
      pid: 42,
      url: 'http://127.0.0.1:4100',
      startedAt: '2024-01-01T00:00:00.000Z',
    });
    expect(parseLock('{"pid":42,"url":null,"startedAt":"x"}')).toMatchObject({ url: null });
  });

  it('rejects what a lock never holds (empty while being written, cut short, garbage)', () => {
    for (const text of [
      '',
      '{"pid":4',
      'null',
      '[]',
      '{"pid":0,"url":null,"startedAt":"x"}',
      '{"pid":-1,"url":null,"startedAt":"x"}',
      '{"pid":"42","url":null,"startedAt":"x"}',
      '{"pid":1.5,"url":null,"startedAt":"x"}',
      '{"pid":42,"url":7,"startedAt":"x"}',
      '{"pid":42,"url":null}',
    ])
      expect(parseLock(text), text).toBeNull();
  });
});

describe('isProcessAlive', () => {
  it('ESRCH is dead; EPERM (another user) and anything else count as alive', () => {
    expect(isProcessAlive(7, () => true)).toBe(true);
    expect(
      isProcessAlive(7, () => {
        throw errno('ESRCH');
      }),
    ).toBe(false);
    expect(
      isProcessAlive(7, () => {
        throw errno('EPERM');
      }),
    ).toBe(true);
    expect(
      isProcessAlive(7, () => {
        throw errno('EINVAL');
      }),
    ).toBe(true);
  });

  it('sees this process', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
  });
});

describe('acquireDataDirLock', () => {
  it('creates the dir (0700) and the lock (0600) holding pid, url and startedAt; release removes it', async () => {
    const dir = path.join(fresh(), 'nested', 'data');
    const lock = await acquireDataDirLock(dir, { pid: 100, now: at('2024-05-01T10:00:00.000Z') });
    expect(JSON.parse(lockText(dir))).toEqual({ pid: 100, url: null, startedAt: '2024-05-01T10:00:00.000Z' });
    if (process.platform !== 'win32') {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(lock.path).mode & 0o777).toBe(0o600);
    }
    lock.setUrl('http://127.0.0.1:4100');
    expect(JSON.parse(lockText(dir))).toEqual({
      pid: 100,
      url: 'http://127.0.0.1:4100',
      startedAt: '2024-05-01T10:00:00.000Z',
    });
    if (process.platform !== 'win32') expect(statSync(lock.path).mode & 0o777).toBe(0o600);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    lock.release(); // twice is fine
  });

  it('refuses while the holder is alive, naming its pid and URL', async () => {
    const dir = fresh();
    const first = await acquireDataDirLock(dir, { pid: 100 });
    first.setUrl('http://127.0.0.1:4100');
    const second = acquireDataDirLock(dir, { pid: 200, isAlive: (pid) => pid === 100 });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toMatchObject({
      pid: 100,
      url: 'http://127.0.0.1:4100',
      dataDir: dir,
      lockPath: path.join(dir, 'bridge.lock'),
      message: `the data dir ${dir} is in use by another bridge (pid 100, http://127.0.0.1:4100); stop it first or set BRIDGE_DATA_DIR`,
    });
    expect(JSON.parse(lockText(dir))).toMatchObject({ pid: 100 }); // untouched
  });

  it('refuses a lock file that is a symbolic link (issue #35.5), even to a live lock, and leaves it', async () => {
    const dir = fresh();
    const elsewhere = fresh();
    writeFileSync(path.join(elsewhere, 'victim'), '{"pid":100,"url":null,"startedAt":"x"}\n', {
      mode: 0o644,
    });
    const link = path.join(dir, 'bridge.lock');
    symlinkSync(path.join(elsewhere, 'victim'), link);
    await expect(acquireDataDirLock(dir, { pid: 200, isAlive: () => false })).rejects.toThrow(
      `${link} is a symbolic link; the bridge opens no link in its data dir: replace it with the file itself`,
    );
    expect(readFileSync(path.join(elsewhere, 'victim'), 'utf8')).toBe(
      '{"pid":100,"url":null,"startedAt":"x"}\n',
    );
  });

  it('says "still starting" while the holder has no URL yet', async () => {
    const dir = fresh();
    await acquireDataDirLock(dir, { pid: 100 });
    await expect(acquireDataDirLock(dir, { pid: 200, isAlive: () => true })).rejects.toThrow(
      '(pid 100, still starting)',
    );
  });

  it('takes over a stale lock (dead pid); the old holder can then neither rewrite nor remove it', async () => {
    const dir = fresh();
    const old = await acquireDataDirLock(dir, { pid: 100, now: at('2024-05-01T10:00:00.000Z') });
    const taken = await acquireDataDirLock(dir, {
      pid: 200,
      now: at('2024-05-01T11:00:00.000Z'),
      isAlive: (pid) => pid !== 100,
    });
    expect(JSON.parse(lockText(dir))).toMatchObject({ pid: 200 });
    old.setUrl('http://127.0.0.1:1');
    old.release();
    expect(JSON.parse(lockText(dir))).toEqual({ pid: 200, url: null, startedAt: '2024-05-01T11:00:00.000Z' });
    taken.release();
    expect(existsSync(taken.path)).toBe(false);
  });

  it('of several bridges taking over one stale lock at once, exactly one wins', async () => {
    const dir = fresh();
    await acquireDataDirLock(dir, { pid: 100 });
    const isAlive = (pid: number) => pid !== 100;
    const outcomes = await Promise.allSettled(
      [201, 202, 203, 204, 205].map((pid) => acquireDataDirLock(dir, { pid, isAlive })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected'))
      expect(outcome.reason).toBeInstanceOf(DataDirInUseError);
    const holder = JSON.parse(lockText(dir)).pid;
    expect([201, 202, 203, 204, 205]).toContain(holder);
  });

  it('waits for a lock being written (empty for a moment) instead of taking it over', async () => {
    const dir = fresh();
    const file = path.join(dir, 'bridge.lock');
    writeFileSync(file, '');
    setTimeout(() => writeFileSync(file, '{"pid":100,"url":null,"startedAt":"x"}'), 50);
    await expect(
      acquireDataDirLock(dir, { pid: 200, isAlive: () => true, unreadableGraceMs: 2_000 }),
    ).rejects.toMatchObject({ name: 'DataDirInUseError', pid: 100 });
  });

  it('takes over a lock still unreadable after the grace (its writer died between create and write)', async () => {
    const dir = fresh();
    writeFileSync(path.join(dir, 'bridge.lock'), '');
    const lock = await acquireDataDirLock(dir, { pid: 200, isAlive: () => true, unreadableGraceMs: 50 });
    expect(JSON.parse(lockText(dir))).toMatchObject({ pid: 200 });
    lock.release();
  });

  it('clears a takeover guard left by a process that died taking over', async () => {
    const dir = fresh();
    await acquireDataDirLock(dir, { pid: 100 });
    const guard = path.join(dir, 'bridge.lock.takeover');
    writeFileSync(guard, '');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(guard, longAgo, longAgo);
    await acquireDataDirLock(dir, { pid: 200, isAlive: (pid) => pid !== 100 });
    expect(JSON.parse(lockText(dir))).toMatchObject({ pid: 200 });
    expect(existsSync(guard)).toBe(false);
  });
});
