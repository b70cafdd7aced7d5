import { realpathSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { backUpDatabase, backupsDirOf, newestRestorable } from './db-backups.js';
import {
  appliedMigrations,
  DatabaseTooNewError,
  holdsData,
  lastStartedRelease,
  recordStart,
  tooNewMessage,
} from './db-versions.js';
import { migrations as shippedMigrations, type Migration } from './migrations/index.js';
import { ensurePrivateDir, ensurePrivateFile, makePrivateIfPresent, refuseLinks } from './private-files.js';
import { readVersion } from './version.js';

export { DatabaseTooNewError } from './db-versions.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /** better-sqlite3 built for Electron's ABI (desktop only; DESIGN §9). */
  nativeBinding?: string;
  /**
   * The areas' own migrations (areas/<area>/migrations/), numbered after the shipped ones; a
   * duplicate number is refused. Whoever opens a data dir's database passes them all
   * (areas/migrations.ts): a database holding a number not among them is refused.
   */
  migrations?: readonly Migration[];
  /** The release named in a refusal (default: this package's version). */
  release?: string;
  /**
   * Tests only: the database may grow by this many pages past its size once migrated, then
   * SQLite refuses writes with a real SQLITE_FULL (`PRAGMA max_page_count`): a full disk
   * without filling one (DESIGN §7).
   */
  testGrowthLimitPages?: number;
}

/** Runs `work` in one transaction: all its writes land together or none do. */
export type Transaction = <T>(work: () => T) => T;

export function transactionOf(db: Db): Transaction {
  return (work) => db.transaction(work)();
}

/**
 * Opens (or creates) a database with the pragmas of DESIGN §7 and migrates it, refusing one that
 * holds a migration it does not know. No backup and no start recorded: the bridge opens its own
 * with openBridgeDatabase.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const db = openChecked(file, options);
  try {
    migrate(db, options.migrations);
    limitGrowth(db, options.testGrowthLimitPages);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export interface BridgeDatabaseOptions extends OpenDatabaseOptions {
  release: string;
  now: () => Date;
}

/**
 * The bridge's database at start (issue #35.2): refused when it holds a migration this release
 * does not know (before anything in it changes); copied to backups/ with SQLite's backup API
 * before migrations run on one that holds anything; then migrated, and the start recorded.
 */
export async function openBridgeDatabase(
  file: string,
  options: BridgeDatabaseOptions,
): Promise<{ db: Db; backup: string | null }> {
  const db = openChecked(file, options);
  try {
    const applied = new Set(appliedMigrations(db));
    const known = knownMigrations(options.migrations);
    const pending = known.some((migration) => !applied.has(migration.version));
    const backup =
      pending && holdsData(db)
        ? await backUpDatabase(db, file, {
            release: options.release,
            at: options.now(),
            ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
          })
        : null;
    migrate(db, options.migrations);
    recordStart(db, options.release, options.now(), Math.max(...known.map((migration) => migration.version)));
    limitGrowth(db, options.testGrowthLimitPages);
    return { db, backup };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Opens `file` without following a link to it or to its -wal, -shm or -journal file (issue #35.5),
 * refuses it when it holds an unknown migration, and sets the pragmas.
 *
 * What is guaranteed about links: the database file is created or opened by the bridge with
 * O_NOFOLLOW (must be a regular file, made 0600) before SQLite opens it, and after SQLite opens it
 * the path SQLite resolved (it follows links in a database's path, unless told not to) must be
 * that file's: a link put there in between is refused before anything is written. The -wal, -shm
 * and -journal files are checked with lstat before; SQLite (3.53, os_unix.c) opens every one of
 * them with O_NOFOLLOW itself, so a link made after the check fails the open (SQLITE_CANTOPEN)
 * instead of being followed. Not guaranteed: the folders above, which config/data-dir.ts checks
 * once at start (no other user can change them), nor anything on Windows beyond the lstat.
 */
function openChecked(file: string, options: OpenDatabaseOptions): Db {
  const onDisk = file !== ':memory:';
  if (onDisk) {
    ensurePrivateDir(path.dirname(file));
    refuseLinks([file, ...sideFiles(file)]);
    // Created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
    ensurePrivateFile(file);
  }
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // SQLite on Windows does not resolve links in a path (the lstat before is the check there).
    if (onDisk && process.platform !== 'win32') checkOpenedPath(db, file);
    refuseUnknownMigrations(db, file, options);
    db.pragma('journal_mode = WAL');
    // Side files an earlier version (or a crash) left behind keep their old mode: tightened too.
    if (onDisk) for (const side of sideFiles(file)) makePrivateIfPresent(side);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    // Deleted and overwritten content is zeroed, not left in free pages (a redacted key, DESIGN §7).
    db.pragma('secure_delete = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

const sideFiles = (file: string) => [`${file}-wal`, `${file}-shm`, `${file}-journal`];

function checkOpenedPath(db: Db, file: string): void {
  const opened = db.pragma('database_list') as { name: string; file: string }[];
  const actual = opened.find((entry) => entry.name === 'main')?.file;
  const expected = path.join(realpathSync(path.dirname(file)), path.basename(file));
  if (actual === expected) return;
  refuseLinks([file]);
  throw new Error(`SQLite opened ${actual ?? 'nothing'} for ${file}`);
}

function refuseUnknownMigrations(db: Db, file: string, options: OpenDatabaseOptions): void {
  const known = knownMigrations(options.migrations);
  const numbers = new Set(known.map((migration) => migration.version));
  const unknown = appliedMigrations(db).filter((version) => !numbers.has(version));
  if (unknown.length === 0) return;
  const release = options.release ?? readVersion();
  const backupsDir = file === ':memory:' ? '(none)' : backupsDirOf(file);
  throw new DatabaseTooNewError(
    tooNewMessage({
      file,
      highest: Math.max(...unknown),
      release,
      knownUpTo: Math.max(...numbers),
      lastRelease: lastStartedRelease(db),
      backup: file === ':memory:' ? null : newestRestorable(backupsDir, numbers, options.nativeBinding),
      backupsDir,
    }),
  );
}

function limitGrowth(db: Db, pages: number | undefined): void {
  if (pages === undefined) return;
  const count = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${count + Math.max(0, Math.floor(pages))}`);
}

/** The shipped migrations and the areas', in order; a number used twice is refused. */
function knownMigrations(areaMigrations: readonly Migration[] = []): Migration[] {
  const all = [...shippedMigrations, ...areaMigrations];
  const numbers = all.map((migration) => migration.version);
  const duplicate = numbers.find((version, index) => numbers.indexOf(version) !== index);
  if (duplicate !== undefined) throw new Error(`two migrations are numbered ${duplicate}`);
  return all.sort((a, b) => a.version - b.version);
}

/**
 * Applies numbered migrations not yet in schema_migrations, each in its own transaction. A
 * database holding a number not among them is refused (DatabaseTooNewError), changed in nothing.
 */
export function migrate(db: Db, areaMigrations: readonly Migration[] = []): number[] {
  const known = knownMigrations(areaMigrations);
  const applied = new Set(appliedMigrations(db));
  const numbers = new Set(known.map((migration) => migration.version));
  const unknown = [...applied].filter((version) => !numbers.has(version));
  if (unknown.length > 0)
    throw new DatabaseTooNewError(
      `the database holds migration ${Math.max(...unknown)} but this code knows migrations up to ${Math.max(...numbers)}`,
    );
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const ran: number[] = [];
  for (const migration of known) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    ran.push(migration.version);
  }
  return ran;
}

/**
 * A read statement whose rows come out as the area's domain type: JSON columns parsed and
 * flags turned into booleans once, in the repo, instead of by every caller.
 */
export function mappedRows<P extends unknown[], Row, Out>(
  statement: Database.Statement<P, Row>,
  map: (row: Row) => Out,
) {
  return {
    get: (...params: P): Out | undefined => {
      const row = statement.get(...params);
      return row === undefined ? undefined : map(row);
    },
    all: (...params: P): Out[] => statement.all(...params).map(map),
  };
}

/**
 * Statements prepared on first use and kept, by their SQL: for a query whose SQL depends on its
 * filters (one statement per set of filters, so each can use its own index), prepared once each.
 */
export function preparedBySql<P extends object, Row>(db: Db): (sql: string) => Database.Statement<P, Row> {
  const prepared = new Map<string, Database.Statement<P, Row>>();
  return (sql) => {
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = db.prepare<P, Row>(sql)));
    return statement;
  };
}

/** ` WHERE a AND b` for the conditions given (null: that filter is not set); empty for none. */
export function whereAll(conditions: readonly (string | null)[]): string {
  const set = conditions.filter((condition) => condition !== null);
  return set.length > 0 ? ` WHERE ${set.join(' AND ')}` : '';
}
