import { lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPrivateFile, readPrivateText } from './private-files.js';

/**
 * One bridge per data dir (DESIGN §7). The first bridge creates `<dataDir>/bridge.lock`
 * exclusively (O_EXCL, mode 0600) with `{pid, url, startedAt}`, and writes its URL into it once
 * it listens. A second bridge finds the file, sees the pid alive and refuses to start
 * (DataDirInUseError) before it opens the database, so it never recovers ("resumes") the jobs
 * the live one is running. A lock whose pid is dead (kill -9, crash, power loss) is stale and
 * taken over. The owner removes the file when it stops, and only while the file is still its own.
 *
 * Limitations:
 * - Liveness is `process.kill(pid, 0)` on this host, except that a zombie (killed, not yet reaped
 *   by its parent: state Z in /proc/<pid>/stat on Linux) counts as gone: it holds no file and
 *   runs nothing, and a restart right after kill -9 must not wait for the reaping.
 * - After a crash the OS may give the pid to an
 *   unrelated process; the lock then looks held and the bridge refuses to start until that
 *   process ends or someone deletes bridge.lock (the error names the pid, so it can be checked).
 * - Two hosts sharing one data dir over a network file system are not told apart: a pid means
 *   nothing on the other host.
 * - The lock is advisory: it keeps out bridges, not other programs writing to the dir.
 * - A lock file that is a symbolic link is refused (DataDirEntryError), never read or replaced
 *   (issue #35.5): the files of the data dir are the bridge's own.
 * - A start that fails after taking the lock and before listening (e.g. a failed migration)
 *   leaves it held until the process exits, when it becomes stale; the CLI and the desktop app
 *   exit on a failed start.
 */

export const LOCK_FILE = 'bridge.lock';

/** What the lock file holds. */
export interface LockHolder {
  pid: number;
  /** Null until the holder listens. */
  url: string | null;
  startedAt: string;
}

/** The data dir is locked by a live bridge. Its message is the one line the CLI prints. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly url: string | null,
    readonly lockPath: string,
  ) {
    super(
      `the data dir ${dataDir} is in use by another bridge (pid ${pid}, ${url ?? 'still starting'}); ` +
        'stop it first or set BRIDGE_DATA_DIR',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Records the URL once the server listens, so that a second bridge can name it. */
  setUrl(url: string): void;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

export interface AcquireOptions {
  /** Tests: the pid written into the lock (default: this process). */
  pid?: number;
  now?: () => Date;
  /** Tests: liveness of a pid (default: isProcessAlive). */
  isAlive?: (pid: number) => boolean;
  /** How long an unreadable lock may stay unreadable before it counts as stale (it is being written). */
  unreadableGraceMs?: number;
}

const MAX_ATTEMPTS = 20;
/** A takeover takes milliseconds; a guard older than this was left by a process that died taking over. */
const STALE_GUARD_MS = 10_000;

/** The holder of a lock file's text, or null when it is not a lock this module wrote (empty, cut short, garbage). */
export function parseLock(text: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, url, startedAt } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (url !== null && typeof url !== 'string') return null;
  if (typeof startedAt !== 'string') return null;
  return { pid, url, startedAt };
}

/**
 * Whether a process with this pid runs: signal 0 checks without sending anything. ESRCH: no
 * such process. EPERM: it exists under another user. Anything else: assume alive (refusing to
 * start is recoverable, two bridges on one database are not). A zombie answers signal 0 too,
 * but is dead: it counts as gone (DESIGN §7).
 */
export function isProcessAlive(
  pid: number,
  kill: (pid: number, signal: 0) => unknown = (p, signal) => process.kill(p, signal),
  state: (pid: number) => string | null = processStateOf,
): boolean {
  try {
    kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  const now = state(pid);
  return now !== 'Z' && now !== 'X';
}

/**
 * The one-letter state of a process from /proc/<pid>/stat (Linux): `R`, `S`, `Z` (zombie), ...;
 * null where there is no /proc or the line does not read. The command name in parentheses may
 * hold spaces and parentheses itself, so the state is the first field after the last `)`.
 */
export function processStateOf(
  pid: number,
  readStat: (pid: number) => string | null = readProcStat,
): string | null {
  const line = readStat(pid);
  if (line === null) return null;
  const close = line.lastIndexOf(')');
  if (close < 0) return null;
  return /^ (\S) /.exec(line.slice(close + 1))?.[1] ?? null;
}

function readProcStat(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Takes the data dir's lock, or throws DataDirInUseError naming the live holder. Call before
 * anything opens the database or recovers jobs. Creates the dir (0700) if needed.
 */
export async function acquireDataDirLock(
  dataDir: string,
  options: AcquireOptions = {},
): Promise<DataDirLock> {
  const pid = options.pid ?? process.pid;
  const now = options.now ?? (() => new Date());
  const isAlive = options.isAlive ?? ((p: number) => isProcessAlive(p));
  const graceMs = options.unreadableGraceMs ?? 1_000;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockPath = path.join(dataDir, LOCK_FILE);

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const mine: LockHolder = { pid, url: null, startedAt: now().toISOString() };
    const content = serialize(mine);
    if (createPrivateFile(lockPath, content)) return heldLock(lockPath, mine, content);

    const seen = await readSettled(lockPath, graceMs);
    if (seen === null) continue; // released meanwhile: try again
    if (seen.holder && isAlive(seen.holder.pid)) {
      throw new DataDirInUseError(dataDir, seen.holder.pid, seen.holder.url, lockPath);
    }
    // Stale (dead pid, or unreadable past the grace): replace it, unless another bridge is doing so.
    if (await takeOver(lockPath, seen.text, content)) return heldLock(lockPath, mine, content);
  }
  throw new Error(`could not lock the data dir ${dataDir}: ${lockPath} kept changing`);
}

function serialize(holder: LockHolder): string {
  return `${JSON.stringify(holder)}\n`;
}

function removeIfExists(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * The lock's text and holder; null if the file is gone. A bridge that has just created the
 * file has not written it yet: an unreadable lock is read again until the grace has passed,
 * then it counts as stale (its writer died between create and write).
 */
async function readSettled(
  file: string,
  graceMs: number,
): Promise<{ text: string; holder: LockHolder | null } | null> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const text = readPrivateText(file);
    if (text === null) return null;
    const holder = parseLock(text);
    if (holder || Date.now() >= deadline) return { text, holder };
    await sleep(25);
  }
}

/**
 * Replaces the stale lock whose text is `staleText` with ours. "Unlink, then create" alone
 * races: a bridge that read the same stale lock a moment earlier could unlink the fresh lock
 * the other just created, and both would run. So the takeover holds a guard file (created
 * exclusively) while it checks the lock still has the stale text, removes it and creates its
 * own. False if it did not get the lock (another bridge is taking over, or took over: the
 * caller looks again).
 */
async function takeOver(lockPath: string, staleText: string, content: string): Promise<boolean> {
  const guard = `${lockPath}.takeover`;
  if (!createPrivateFile(guard, content)) {
    if (Date.now() - mtimeMs(guard) > STALE_GUARD_MS) removeIfExists(guard);
    else await sleep(25);
    return false;
  }
  try {
    if (readPrivateText(lockPath) === staleText) removeIfExists(lockPath);
    return createPrivateFile(lockPath, content);
  } finally {
    removeIfExists(guard);
  }
}

function mtimeMs(file: string): number {
  try {
    return lstatSync(file).mtimeMs;
  } catch {
    return Date.now(); // gone: not stale, just look again
  }
}

function heldLock(lockPath: string, holder: LockHolder, content: string): DataDirLock {
  let written = content;
  let released = false;
  return {
    path: lockPath,
    setUrl(url) {
      if (released || readPrivateText(lockPath) !== written) return; // no longer ours
      const next = serialize({ ...holder, url });
      // Written aside and renamed over: a reader never sees a half-written lock.
      const temporary = `${lockPath}.${holder.pid}.tmp`;
      removeIfExists(temporary); // left by a crash of an earlier process with this pid
      if (!createPrivateFile(temporary, next)) return;
      renameSync(temporary, lockPath);
      written = next;
    },
    release() {
      if (released) return;
      released = true;
      if (readPrivateText(lockPath) === written) removeIfExists(lockPath);
    },
  };
}
