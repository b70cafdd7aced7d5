import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations as shippedMigrations, type Migration } from './migrations/index.js';
import { ensurePrivateDir, ensurePrivateFile } from './private-files.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /** better-sqlite3 built for Electron's ABI (desktop only; DESIGN §9). */
  nativeBinding?: string;
  /** The areas' own migrations (areas/<area>/migrations/), numbered after the shipped ones; a duplicate number is refused. */
  migrations?: readonly Migration[];
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

/** Opens (or creates) the bridge database with the pragmas of DESIGN §7 and migrates it. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const onDisk = file !== ':memory:';
  if (onDisk) {
    ensurePrivateDir(path.dirname(file));
    // Created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
    ensurePrivateFile(file);
  }
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  // Side files an earlier version (or a crash) left behind keep their old mode: tightened too.
  if (onDisk) for (const side of [`${file}-wal`, `${file}-shm`]) if (existsSync(side)) chmodSync(side, 0o600);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  // Deleted and overwritten content is zeroed, not left in free pages (a redacted key, DESIGN §7).
  db.pragma('secure_delete = ON');
  migrate(db, options.migrations);
  if (options.testGrowthLimitPages !== undefined) {
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + Math.max(0, Math.floor(options.testGrowthLimitPages))}`);
  }
  return db;
}

/** Applies numbered migrations not yet in schema_migrations, each in its own transaction. */
export function migrate(db: Db, areaMigrations: readonly Migration[] = []): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set(
    db
      .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
      .all()
      .map((row) => row.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const ran: number[] = [];
  const numbers = [...shippedMigrations, ...areaMigrations].map((migration) => migration.version);
  const duplicate = numbers.find((version, index) => numbers.indexOf(version) !== index);
  if (duplicate !== undefined) throw new Error(`two migrations are numbered ${duplicate}`);
  for (const migration of [...shippedMigrations, ...areaMigrations].sort((a, b) => a.version - b.version)) {
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
