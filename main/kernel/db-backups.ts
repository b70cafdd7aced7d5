import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { appliedMigrations } from './db-versions.js';
import { createPrivateFile, ensurePrivateDir } from './private-files.js';

/**
 * Before migrating a database that holds anything, the bridge copies it with SQLite's backup API
 * to `backups/bridge-<release>-<UTC>.sqlite` beside it (issue #35.2): `<release>` is the release
 * that made the copy (the one about to migrate), `<UTC>` when (ISO 8601 basic, so names sort by
 * time). The copy holds the database as it was before that migration. Files 0600 in a 0700 folder,
 * in rollback-journal mode (so that reading one, read-only, leaves no -wal or -shm beside it); the
 * newest BACKUPS_KEPT are kept.
 */

export const BACKUPS_KEPT = 3;

const BACKUP_NAME = /^bridge-(.+)-(\d{8}T\d{6}Z)\.sqlite$/;

export const backupsDirOf = (databaseFile: string): string =>
  path.join(path.dirname(databaseFile), 'backups');

/** `bridge-1.2.0-20300102T030405Z.sqlite`: characters a file name may hold on every OS. */
export function backupName(release: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return `bridge-${release.replace(/[^\w.+-]/g, '_')}-${stamp}.sqlite`;
}

/** The backups in `dir`, newest first (by the time in their names); links and other files are not backups. */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    if (!lstatSync(dir).isDirectory()) return [];
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const stamp = BACKUP_NAME.exec(name)?.[2];
      return stamp && lstatSync(path.join(dir, name)).isFile() ? [{ name, stamp }] : [];
    })
    .sort((a, b) => b.stamp.localeCompare(a.stamp) || b.name.localeCompare(a.name))
    .map(({ name }) => path.join(dir, name));
}

export interface BackupOptions {
  release: string;
  at: Date;
  nativeBinding?: string;
}

/** Copies `db` (the database at `file`) into its backups folder, then keeps the newest BACKUPS_KEPT. */
export async function backUpDatabase(
  db: Database.Database,
  file: string,
  options: BackupOptions,
): Promise<string> {
  const dir = backupsDirOf(file);
  ensurePrivateDir(dir);
  const target = path.join(dir, backupName(options.release, options.at));
  // Created by the bridge, 0600, before SQLite writes into it (SQLite keeps a file's mode).
  if (!createPrivateFile(target))
    throw new Error(`could not back up ${file} before migrating it: ${target} exists`);
  try {
    await db.backup(target);
    const copy = new Database(target, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
  } catch (error) {
    rmSync(target, { force: true });
    rmSync(`${target}-journal`, { force: true });
    throw new Error(
      `could not back up ${file} to ${target} before migrating it (${(error as Error).message}); nothing was migrated`,
    );
  }
  for (const old of listBackups(dir).slice(BACKUPS_KEPT)) rmSync(old, { force: true });
  return target;
}

/**
 * The newest backup whose migrations this release all knows (it can open it), and the highest of
 * them; null if there is none. A backup that cannot be read is passed over.
 */
export function newestRestorable(
  dir: string,
  known: ReadonlySet<number>,
  nativeBinding?: string,
): { file: string; upTo: number } | null {
  for (const file of listBackups(dir)) {
    let versions: number[];
    try {
      const copy = new Database(file, {
        readonly: true,
        fileMustExist: true,
        ...(nativeBinding ? { nativeBinding } : {}),
      });
      try {
        versions = appliedMigrations(copy);
      } finally {
        copy.close();
      }
    } catch {
      continue;
    }
    if (versions.length > 0 && versions.every((version) => known.has(version)))
      return { file, upTo: Math.max(...versions) };
  }
  return null;
}
