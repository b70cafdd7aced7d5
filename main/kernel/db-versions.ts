import type Database from 'better-sqlite3';

/**
 * Which release may open which database (DESIGN §7, issue #35.2). An older release on a database a
 * newer one had migrated ignored the newer one's tables (a "waiting for the operator" hold),
 * deleted a live post and posted it again. So a bridge refuses a database holding a migration
 * number it does not know. Only numbers are compared: a migration's name and file may move
 * between releases, its number never changes.
 */

/** The database holds a migration this code does not know. Its message is the one line start-up prints. */
export class DatabaseTooNewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseTooNewError';
  }
}

/** The migration numbers recorded in the database (none in a new one). */
export function appliedMigrations(db: Database.Database): number[] {
  const hasTable = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!hasTable) return [];
  return db.prepare<[], number>('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
}

/** Whether the database holds anything yet (a new file holds nothing to lose). */
export function holdsData(db: Database.Database): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() !== undefined;
}

/** The release of the newest start recorded (migration 024), or null. */
export function lastStartedRelease(db: Database.Database): string | null {
  try {
    return (
      db.prepare<[], string>('SELECT release FROM bridge_starts ORDER BY id DESC LIMIT 1').pluck().get() ??
      null
    );
  } catch {
    return null; // no such table (a database older than 024), or one a newer release reshaped
  }
}

export function recordStart(db: Database.Database, release: string, at: Date, migration: number): void {
  db.prepare('INSERT INTO bridge_starts (release, started_at, migration) VALUES (?, ?, ?)').run(
    release,
    at.toISOString(),
    migration,
  );
}

export interface TooNewFacts {
  file: string;
  /** The database's highest migration. */
  highest: number;
  release: string;
  /** This release's highest migration. */
  knownUpTo: number;
  lastRelease: string | null;
  /** The newest backup this release can open, and the highest migration it holds. */
  backup: { file: string; upTo: number } | null;
  backupsDir: string;
}

/**
 * One line: what the database holds, what this release knows, and what to do. Running the newer
 * release again loses nothing; going back to a backup loses what changed since it was made (and
 * the -wal and -shm files beside the database belong to the newer one: copied over, SQLite would
 * replay them into the older database).
 */
export function tooNewMessage(facts: TooNewFacts): string {
  const { file, release } = facts;
  const head = `the database ${file} holds migration ${facts.highest} but this release (${release}) knows migrations up to ${facts.knownUpTo}`;
  const newer = facts.lastRelease !== null && facts.lastRelease !== release ? facts.lastRelease : null;
  const run = newer
    ? `; it was last started by release ${newer}. Run release ${newer} or a newer one on it`
    : '. Run the newer release that migrated it';
  const back = facts.backup
    ? `; or, to go back to ${release}, stop the bridge, delete ${file}-wal and ${file}-shm, and copy ${facts.backup.file} ` +
      `(migrations up to ${facts.backup.upTo}) over ${file}: what changed since that backup was made is lost`
    : `; there is no backup this release can open in ${facts.backupsDir}`;
  return head + run + back;
}
