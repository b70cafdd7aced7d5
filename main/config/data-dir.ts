import { closeSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Creates the data dir if needed (0700, DESIGN §7) and checks that files can be written in it.
 * Returns null when usable, else why not, in words for the operator ("it is a file, not a folder").
 *
 * The folders are created one level at a time: Node's `mkdirSync(dir, {recursive: true})` loops
 * forever when mkdir answers ENOENT under an existing parent, as it does anywhere under /proc.
 */
export function prepareDataDir(dataDir: string): string | null {
  const missing: string[] = [];
  let existing = dataDir;
  for (;;) {
    const kind = kindOf(existing);
    if (kind === 'folder') break;
    if (kind === 'file')
      return existing === dataDir ? 'it is a file, not a folder' : `${existing} is a file, not a folder`;
    if (kind === 'unreadable') return `no permission to read ${existing}`;
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
      return `the folder cannot be created there (${reason(error)})`;
    }
  }
  return writeProbe(dataDir);
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

/** Permission bits say little (root, ACLs, read-only mounts): write a file and remove it. */
function writeProbe(dataDir: string): string | null {
  const probe = path.join(dataDir, `.write-probe-${process.pid}`);
  try {
    const fd = openSync(probe, 'w', 0o600);
    try {
      writeSync(fd, 'ok');
    } finally {
      closeSync(fd);
    }
    unlinkSync(probe);
    return null;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EACCES' || code === 'EPERM') return 'no permission to write in it';
    return `files cannot be written in it (${reason(error)})`;
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
