import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { openNoFollow } from '../kernel/private-files.js';

/** The data dir as the bridge will use it, or why it cannot. */
export interface PreparedDataDir {
  /** The folder resolved once (links followed), every file of the bridge is under it; as given when unusable. */
  dir: string;
  /** The path as given, when it led through a symbolic link to `dir` (allowed: logged at start). */
  linkedFrom: string | null;
  /** Null when usable, else why not, in words for the operator ("it is a file, not a folder"). */
  problem: string | null;
}

/** The sticky bit: in such a folder only an entry's owner may rename or remove it. */
const STICKY = 0o1000;

/** Folders of the data dir the bridge writes in, checked like the data dir itself. */
const FOLDERS_INSIDE = ['logs', 'backups'];

/**
 * Creates the data dir if needed (0700, DESIGN §7), resolves it once (a data dir that is a link,
 * e.g. to another disk, is allowed) and checks that files can be written in it and that no other
 * user can change what is in it (issue #35.5): on POSIX the data dir, its folders logs/ and
 * backups/, and every folder above it must be owned by this user or root and writable by no one
 * else (a folder above may be writable by others with the sticky bit, as /tmp is). On Windows, and
 * on a file system that keeps no modes (FAT, exFAT, some network shares: a file made 0600 does not
 * stay 0600), modes say nothing and are not checked.
 *
 * The folders are created one level at a time: Node's `mkdirSync(dir, {recursive: true})` loops
 * forever when mkdir answers ENOENT under an existing parent, as it does anywhere under /proc.
 */
export function prepareDataDir(requested: string): PreparedDataDir {
  const unusable = (problem: string): PreparedDataDir => ({ dir: requested, linkedFrom: null, problem });
  const missing: string[] = [];
  let existing = requested;
  for (;;) {
    const kind = kindOf(existing);
    if (kind === 'folder') break;
    if (kind === 'file')
      return unusable(
        existing === requested ? 'it is a file, not a folder' : `${existing} is a file, not a folder`,
      );
    if (kind === 'unreadable') return unusable(`no permission to read ${existing}`);
    missing.unshift(existing);
    const parent = path.dirname(existing);
    if (parent === existing) break; // the root itself is missing: mkdir below says why
    existing = parent;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if (codeOf(error) === 'EEXIST' && kindOf(folder) === 'folder') continue; // created meanwhile
      return unusable(`the folder cannot be created there (${reason(error)})`);
    }
  }
  const dir = realpathSync(requested);
  const linkedFrom = dir === requested ? null : requested;
  const probe = writeProbe(dir);
  if (typeof probe === 'string') return { dir, linkedFrom, problem: probe };
  const problem = modesApply(process.platform, probe.mode) ? unsafeFolders(dir) : null;
  return { dir, linkedFrom, problem };
}

/** Whether file modes mean anything here: not on Windows, nor where a file made 0600 did not stay 0600. */
export function modesApply(platform: NodeJS.Platform, probeMode: number): boolean {
  return platform !== 'win32' && (probeMode & 0o777) === 0o600;
}

/** What the check needs of a folder: its path, mode and owner (from lstat). */
export interface FolderFacts {
  path: string;
  mode: number;
  uid: number;
}

/**
 * Why another user could change what the bridge reads from `folder`, or null: `data dir` is the
 * data dir itself, `inside` a folder in it, `above` a folder above it (which may be writable by
 * others with the sticky bit: then they cannot rename or remove what is not theirs).
 */
export function folderRisk(
  folder: FolderFacts,
  role: 'data dir' | 'inside' | 'above',
  me: { uid: number; name: string },
): string | null {
  const where = folder.path;
  const mode = (folder.mode & 0o7777).toString(8);
  const othersOwn = folder.uid !== me.uid && folder.uid !== 0;
  const othersWrite = (folder.mode & 0o022) !== 0;
  if (role === 'above') {
    if (othersOwn)
      return `${where} belongs to another user (uid ${folder.uid}), who could replace it; use a data dir under folders only you (or root) own`;
    if (othersWrite && (folder.mode & STICKY) === 0)
      return `other users can write in ${where} (mode ${mode}), so they could replace it; use a data dir under folders only you (or root) can write, or chmod go-w ${where}`;
    return null;
  }
  const it = role === 'data dir' ? 'it' : where;
  if (othersOwn)
    return `${it} belongs to another user (uid ${folder.uid}); run the bridge as that user, or make the folder yours: chown ${me.name} ${where}`;
  if (othersWrite)
    return `other users can write in ${it} (mode ${mode}); make it yours alone: chmod go-w ${where}`;
  return null;
}

function unsafeFolders(dir: string): string | null {
  const uid = process.getuid?.() ?? 0;
  const me = { uid, name: userName(uid) };
  const facts = (at: string): FolderFacts => {
    const stat = lstatSync(at);
    return { path: at, mode: stat.mode, uid: stat.uid };
  };
  const own = folderRisk(facts(dir), 'data dir', me);
  if (own) return own;
  for (const name of FOLDERS_INSIDE) {
    const inside = path.join(dir, name);
    const stat = lstatOrNull(inside);
    // A link there is refused when the bridge opens it, naming it (kernel/private-files.ts).
    if (!stat?.isDirectory()) continue;
    const risk = folderRisk({ path: inside, mode: stat.mode, uid: stat.uid }, 'inside', me);
    if (risk) return risk;
  }
  for (let above = path.dirname(dir); ; above = path.dirname(above)) {
    const risk = folderRisk(facts(above), 'above', me);
    if (risk) return risk;
    if (path.dirname(above) === above) return null;
  }
}

function userName(uid: number): string {
  try {
    return userInfo().username;
  } catch {
    return String(uid); // no name for this uid (a container's user): chown takes the number
  }
}

function lstatOrNull(entry: string) {
  try {
    return lstatSync(entry);
  } catch {
    return null;
  }
}

function kindOf(entry: string): 'folder' | 'file' | 'missing' | 'unreadable' {
  try {
    return statSync(entry).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    const code = codeOf(error);
    // ENOTDIR: a folder above is a file; walking up finds and names it.
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    return 'unreadable';
  }
}

/**
 * Permission bits say little (root, ACLs, read-only mounts): write a file and remove it. Created
 * exclusively (never through a link, whoever could write here), and made 0600: its mode afterwards
 * tells whether this file system keeps modes. Its mode, or why nothing can be written.
 */
function writeProbe(dataDir: string): { mode: number } | string {
  const probe = path.join(dataDir, `.write-probe-${process.pid}`);
  try {
    const fd = createProbe(probe);
    let mode: number;
    try {
      try {
        fchmodSync(fd, 0o600);
      } catch {
        // a file system without modes may refuse: its mode below says so
      }
      mode = fstatSync(fd).mode;
      writeSync(fd, 'ok');
    } finally {
      closeSync(fd);
    }
    unlinkSync(probe);
    return { mode };
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EACCES' || code === 'EPERM') return 'no permission to write in it';
    return `files cannot be written in it (${reason(error)})`;
  }
}

/** The probe file, new: one left by a crashed process with this pid is removed first. */
function createProbe(probe: string): number {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
  try {
    return openNoFollow(probe, flags);
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
    unlinkSync(probe);
    return openNoFollow(probe, flags);
  }
}

const reasons: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOENT: 'the file system does not allow it',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left',
  ENOTDIR: 'a part of the path is a file',
};

function reason(error: unknown): string {
  const code = codeOf(error);
  return (code && reasons[code]) ?? code ?? String(error);
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
