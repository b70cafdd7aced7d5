import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { areaMigrations } from '../../../main/areas/migrations.js';
import {
  DatabaseTooNewError,
  migrate,
  openBridgeDatabase,
  openDatabase,
  type Db,
} from '../../../main/kernel/db.js';
import type { Migration } from '../../../main/kernel/migrations/index.js';
import { migrations as shippedMigrations } from '../../../main/kernel/migrations/index.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/*
 * Issue #35.2: a bridge refuses a database holding a migration number it does not know, and
 * backs a non-empty database up (SQLite's backup API) before migrating it; a row per start
 * records the release.
 */

const dirs: TempDir[] = [];
const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) dir.remove();
});

function dataDir(): string {
  const dir = tempDir('database-versions');
  dirs.push(dir);
  return dir.path;
}

const known = [...shippedMigrations, ...areaMigrations];
const highestKnown = Math.max(...known.map((m) => m.version));
const probe = (version: number): Migration => ({
  version,
  name: `probe-${version}`,
  sql: `CREATE TABLE probe_${version} (id INTEGER PRIMARY KEY)`,
});
const at = (second: number) => () => new Date(Date.UTC(2030, 0, 2, 3, 4, second));

function versionsIn(file: string): number[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], number>('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
  } finally {
    db.close();
  }
}

function addFutureMigration(file: string, version: number): void {
  const db = new Database(file);
  db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 'x')").run(
    version,
  );
  db.close();
}

describe('a database from a newer release', () => {
  it('openDatabase refuses it before changing anything, naming both highest migrations', () => {
    const file = path.join(dataDir(), 'bridge.sqlite');
    openDatabase(file, { migrations: areaMigrations }).close();
    addFutureMigration(file, 999);
    const tablesBefore = versionsIn(file);
    let refusal: unknown;
    try {
      opened.push(openDatabase(file, { migrations: areaMigrations, release: '1.2.3' }));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DatabaseTooNewError);
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `^the database ${file} holds migration 999 but this release \\(1\\.2\\.3\\) knows migrations up to ${highestKnown}\\. Run the newer release`,
      ),
    );
    expect((refusal as Error).message).not.toContain('\n');
    expect(versionsIn(file)).toEqual(tablesBefore);
  });

  it('compares numbers only: a caller passing only some migrations is refused on a fuller database', () => {
    const file = path.join(dataDir(), 'bridge.sqlite');
    openDatabase(file, { migrations: areaMigrations }).close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
    // The same numbers under other names (files moved): still known.
    const renamed = areaMigrations.map((m) => ({ ...m, name: `moved-${m.name}` }));
    opened.push(openDatabase(file, { migrations: renamed }));
  });

  it('migrate refuses too, for a caller that migrates a database it opened itself', () => {
    const db = new Database(':memory:');
    opened.push(db);
    migrate(db, [probe(900)]);
    expect(() => migrate(db)).toThrow(DatabaseTooNewError);
  });
});

describe('openBridgeDatabase: backups before migrating, a row per start', () => {
  it('a new database: migrated, no backup, the start recorded', async () => {
    const dir = dataDir();
    const file = path.join(dir, 'bridge.sqlite');
    const { db, backup } = await openBridgeDatabase(file, {
      migrations: areaMigrations,
      release: '1.0.0',
      now: at(1),
    });
    opened.push(db);
    expect(backup).toBeNull();
    expect(readdirSync(dir)).not.toContain('backups');
    expect(db.prepare('SELECT release, started_at, migration FROM bridge_starts').all()).toEqual([
      { release: '1.0.0', started_at: '2030-01-02T03:04:01.000Z', migration: highestKnown },
    ]);
  });

  it('backs up a database before migrating it, keeps the newest 3, and the refusal names the newest it can open', async () => {
    const dir = dataDir();
    const file = path.join(dir, 'bridge.sqlite');
    const start = async (extra: Migration[], second: number, release: string) => {
      const { db, backup } = await openBridgeDatabase(file, {
        migrations: [...areaMigrations, ...extra],
        release,
        now: at(second),
      });
      db.close();
      return backup;
    };
    expect(await start([], 1, '1.0.0')).toBeNull();
    expect(await start([], 2, '1.0.0')).toBeNull(); // nothing to migrate: no backup

    const made: string[] = [];
    for (const version of [901, 902, 903, 904]) {
      const extra = [901, 902, 903, 904].filter((v) => v <= version).map(probe);
      made.push((await start(extra, version - 890, `1.0.${version - 900}`))!);
    }
    const backupsDir = path.join(dir, 'backups');
    expect(made.map((file) => path.relative(dir, file))).toEqual([
      'backups/bridge-1.0.1-20300102T030411Z.sqlite',
      'backups/bridge-1.0.2-20300102T030412Z.sqlite',
      'backups/bridge-1.0.3-20300102T030413Z.sqlite',
      'backups/bridge-1.0.4-20300102T030414Z.sqlite',
    ]);
    // The newest 3; each 0600 and holding the database as it was before that migration.
    expect(readdirSync(backupsDir).sort()).toEqual(made.slice(1).map((file) => path.basename(file)));
    expect(statSync(backupsDir).mode & 0o777).toBe(0o700);
    for (const file of made.slice(1)) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Math.max(...versionsIn(made[3]!))).toBe(903);
    expect(Math.max(...versionsIn(made[1]!))).toBe(901);
    expect(readdirSync(backupsDir).some((name) => name.endsWith('-wal') || name.endsWith('-shm'))).toBe(
      false,
    );

    // Release 1.0.2 (knows up to 902) on the database 1.0.4 left: it names the newest backup it can open.
    const refusal = openBridgeDatabase(file, {
      migrations: [...areaMigrations, probe(901), probe(902)],
      release: '1.0.2',
      now: at(30),
    });
    await expect(refusal).rejects.toBeInstanceOf(DatabaseTooNewError);
    const message = await refusal.catch((error: Error) => error.message);
    expect(message).toBe(
      `the database ${file} holds migration 904 but this release (1.0.2) knows migrations up to 902; ` +
        'it was last started by release 1.0.4. Run release 1.0.4 or a newer one on it; or, to go back to 1.0.2, ' +
        `stop the bridge, delete ${file}-wal and ${file}-shm, and copy ${made[2]} (migrations up to 902) over ${file}: ` +
        'what changed since that backup was made is lost',
    );
    // The refusal left the database as it was: 1.0.4 can still open it.
    const { db } = await openBridgeDatabase(file, {
      migrations: [...areaMigrations, ...[901, 902, 903, 904].map(probe)],
      release: '1.0.4',
      now: at(31),
    });
    db.close();
  });

  it('without a backup it can open, the refusal says so', async () => {
    const dir = dataDir();
    const file = path.join(dir, 'bridge.sqlite');
    openDatabase(file, { migrations: areaMigrations }).close();
    addFutureMigration(file, 950);
    await expect(
      openBridgeDatabase(file, { migrations: areaMigrations, release: '1.0.0', now: at(1) }),
    ).rejects.toThrow(
      `the database ${file} holds migration 950 but this release (1.0.0) knows migrations up to ${highestKnown}. ` +
        `Run the newer release that migrated it; there is no backup this release can open in ${path.join(dir, 'backups')}`,
    );
  });
});
