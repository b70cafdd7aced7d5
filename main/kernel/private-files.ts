import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';

/**
 * The data dir holds the database (stream keys while a dependent waits, webhook logs), the
 * config (peer keys) and the logs: only the bridge's user may read them (DESIGN §7), whoever
 * created the dir and whatever the umask.
 *
 * Files in it are opened without following symbolic links (issue #35.5): with O_NOFOLLOW on the
 * last component where the platform has it, else (Windows) after an lstat that finds no link. A
 * link is refused with one line naming it. Opens also take O_NONBLOCK, so that a fifo put in a
 * file's place is refused instead of blocking the start. The data dir itself is resolved once
 * (config/data-dir.ts), so the folders above a file are not links the bridge has not seen.
 */

/** A link (or something else that is not the bridge's own file or folder) where the bridge keeps one. */
export class DataDirEntryError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'DataDirEntryError';
  }
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NOFOLLOW | NONBLOCK;
const READ = constants.O_RDONLY | NOFOLLOW | NONBLOCK;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

const linkRefused = (file: string) =>
  new DataDirEntryError(
    file,
    `${file} is a symbolic link; the bridge opens no link in its data dir: replace it with the file itself`,
  );

const notAFile = (file: string) =>
  new DataDirEntryError(
    file,
    `${file} is not a regular file; the bridge keeps only its own files there: move it away`,
  );

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** What is at `file` without following a link there; null when nothing is. */
function entryAt(file: string) {
  try {
    return lstatSync(file);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Throws the one-line refusal for the first of `files` that is a symbolic link (missing ones are fine). */
export function refuseLinks(files: readonly string[]): void {
  for (const file of files) if (entryAt(file)?.isSymbolicLink()) throw linkRefused(file);
}

/**
 * Opens `file` with `flags` (O_NOFOLLOW among them), never through a link. ELOOP (EMLINK on the
 * BSDs) is also the answer to a loop further up the path: the lstat tells which it was.
 */
export function openNoFollow(file: string, flags: number, mode = 0o600): number {
  if (NOFOLLOW === 0) refuseLinks([file]);
  try {
    return openSync(file, flags | NOFOLLOW, mode);
  } catch (error) {
    const code = codeOf(error);
    if ((code === 'ELOOP' || code === 'EMLINK') && entryAt(file)?.isSymbolicLink()) throw linkRefused(file);
    throw error;
  }
}

/** Opens a regular file of the data dir (created 0600 if missing and `flags` say so; made 0600 if `tighten`): its fd. */
function openPrivate(file: string, flags: number, tighten: boolean): number {
  const entry = entryAt(file);
  // Said before opening: a fifo without a reader answers a non-blocking open with ENXIO.
  if (entry && !entry.isFile() && !entry.isSymbolicLink()) throw notAFile(file);
  const fd = openNoFollow(file, flags);
  try {
    if (!fstatSync(fd).isFile()) throw notAFile(file);
    if (tighten) fchmodSync(fd, 0o600);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Creates `file` if missing and makes it 0600, also when an earlier version left it readable to others. */
export function ensurePrivateFile(file: string): void {
  closeSync(openPrivate(file, APPEND, true));
}

/** Makes `file` 0600 if it exists (a file SQLite made beside the database, left looser by an earlier version). */
export function makePrivateIfPresent(file: string): void {
  try {
    closeSync(openPrivate(file, READ, true));
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
  }
}

/** The flags a log opens its file with: appending, created 0600, never through a link. */
export const appendFlags = APPEND;

/** The text of a file of the data dir; null when it does not exist. */
export function readPrivateText(file: string): string | null {
  let fd: number;
  try {
    fd = openPrivate(file, READ, false);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates `file` (0600) only if nothing, not even a dangling link, is there (O_EXCL never follows
 * one); false if something is. With `content`, written into it.
 */
export function createPrivateFile(file: string, content?: string): boolean {
  let fd: number;
  try {
    fd = openNoFollow(file, CREATE_NEW);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    fchmodSync(fd, 0o600); // the umask may have taken bits away, never added: 0600 exactly
    if (content !== undefined) writeSync(fd, content);
  } catch (error) {
    closeSync(fd);
    unlinkSync(file);
    throw error;
  }
  closeSync(fd);
  return true;
}

/**
 * Replaces `file` with `text`, whole: written to a new 0600 file beside it, flushed, then renamed
 * over it (a crash leaves the old file or the new one, never half of one). A link at `file` is
 * refused; a rename would replace the link itself anyway, never write to what it points to.
 */
export function writePrivateFile(file: string, text: string): void {
  const existing = entryAt(file);
  if (existing?.isSymbolicLink()) throw linkRefused(file);
  if (existing && !existing.isFile()) throw notAFile(file);
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const fd = openNoFollow(temporary, CREATE_NEW);
  let open = true;
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    open = false;
    renameSync(temporary, file);
  } catch (error) {
    if (open) closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
}

/**
 * Creates `dir` (and missing parents) as 0700; a dir that exists keeps the mode its owner chose.
 * A link, or a file, where the folder should be is refused.
 */
export function ensurePrivateDir(dir: string): void {
  let entry = entryAt(dir);
  if (!entry) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    entry = lstatSync(dir);
  }
  if (entry.isSymbolicLink()) throw linkRefused(dir);
  if (!entry.isDirectory())
    throw new DataDirEntryError(
      dir,
      `${dir} is not a folder; the bridge keeps its own folder there: move it away`,
    );
}
