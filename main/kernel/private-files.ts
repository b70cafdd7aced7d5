import { closeSync, fchmodSync, fstatSync, mkdirSync, openSync } from 'node:fs';

/**
 * The data dir holds the database (stream keys while a dependent waits, webhook logs), the
 * config (peer keys) and the logs: only the bridge's user may read them (DESIGN §7), whoever
 * created the dir and whatever the umask.
 */

/**
 * Creates `file` if missing and makes it 0600, also when an earlier version left it readable to
 * others. Only a regular file: a path that leads to a device (a log on /dev/full in a test)
 * keeps the device's mode.
 */
export function ensurePrivateFile(file: string): void {
  const fd = openSync(file, 'a', 0o600);
  try {
    if (fstatSync(fd).isFile()) fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/** Creates `dir` (and missing parents) as 0700; a dir that exists keeps the mode its owner chose. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}
