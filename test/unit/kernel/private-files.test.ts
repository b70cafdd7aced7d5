import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile } from '../../../main/kernel/log-file.js';
import {
  DataDirEntryError,
  ensurePrivateDir,
  ensurePrivateFile,
  readPrivateText,
  refuseLinks,
  writePrivateFile,
} from '../../../main/kernel/private-files.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/*
 * Issue #35.5: files in the data dir are opened without following links (O_NOFOLLOW, or an lstat
 * check where the platform has none); a link is refused with one line naming it.
 */

const dirs: TempDir[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function scratch(): { dir: string; victim: string } {
  const temp = tempDir('private-files');
  dirs.push(temp);
  const victim = path.join(temp.path, 'victim.txt');
  writeFileSync(victim, '{}\n', { mode: 0o644 });
  chmodSync(victim, 0o644);
  const dir = path.join(temp.path, 'data');
  mkdirSync(dir, { mode: 0o700 });
  return { dir, victim };
}

const refusal = (file: string) =>
  new DataDirEntryError(
    file,
    `${file} is a symbolic link; the bridge opens no link in its data dir: replace it with the file itself`,
  );

function expectUntouched(victim: string): void {
  expect(readFileSync(victim, 'utf8')).toBe('{}\n');
  expect(statSync(victim).mode & 0o777).toBe(0o644);
}

describe('private files in the data dir', () => {
  it('ensurePrivateFile: creates 0600, tightens an existing file, refuses a link and a fifo', () => {
    const { dir, victim } = scratch();
    const file = path.join(dir, 'bridge.sqlite');
    ensurePrivateFile(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    ensurePrivateFile(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const link = path.join(dir, 'linked.sqlite');
    symlinkSync(victim, link);
    expect(() => ensurePrivateFile(link)).toThrow(refusal(link));
    expectUntouched(victim);

    if (process.platform !== 'win32') {
      const fifo = path.join(dir, 'fifo.sqlite');
      execFileSync('mkfifo', [fifo]);
      expect(() => ensurePrivateFile(fifo)).toThrow(`${fifo} is not a regular file`);
    }
  });

  it('readPrivateText: the text, null when missing, a link refused', () => {
    const { dir, victim } = scratch();
    const file = path.join(dir, 'config.json');
    expect(readPrivateText(file)).toBeNull();
    writeFileSync(file, '{"a":1}');
    expect(readPrivateText(file)).toBe('{"a":1}');
    const link = path.join(dir, 'linked.json');
    symlinkSync(victim, link);
    expect(() => readPrivateText(link)).toThrow(refusal(link));
  });

  it('writePrivateFile: replaces the file whole (0600, no temp left), refuses a link and leaves its target', () => {
    const { dir, victim } = scratch();
    const file = path.join(dir, 'config.json');
    writePrivateFile(file, 'one\n');
    writePrivateFile(file, 'two\n');
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['config.json']);

    const link = path.join(dir, 'linked.json');
    symlinkSync(victim, link);
    expect(() => writePrivateFile(link, 'evil\n')).toThrow(refusal(link));
    expectUntouched(victim);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'linked.json']);
  });

  it('ensurePrivateDir: creates 0700, refuses a link to a folder', () => {
    const { dir } = scratch();
    const logs = path.join(dir, 'logs');
    ensurePrivateDir(logs);
    expect(statSync(logs).mode & 0o777).toBe(0o700);
    const elsewhere = path.join(path.dirname(dir), 'elsewhere');
    mkdirSync(elsewhere);
    const link = path.join(dir, 'backups');
    symlinkSync(elsewhere, link);
    expect(() => ensurePrivateDir(link)).toThrow(refusal(link));
  });

  it('refuseLinks: names the first link among files that may not exist yet', () => {
    const { dir, victim } = scratch();
    const wal = path.join(dir, 'bridge.sqlite-wal');
    refuseLinks([path.join(dir, 'bridge.sqlite'), wal]);
    symlinkSync(victim, wal);
    expect(() => refuseLinks([path.join(dir, 'bridge.sqlite'), wal])).toThrow(refusal(wal));
  });

  it('LogFile: a log that is a link is refused, its target untouched', () => {
    const { dir, victim } = scratch();
    const link = path.join(dir, 'bridge.log');
    symlinkSync(victim, link);
    expect(() => new LogFile(link)).toThrow(refusal(link));
    expectUntouched(victim);
  });
});
