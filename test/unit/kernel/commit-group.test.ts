import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { groupCommitOf } from '../../../main/kernel/commit-group.js';

const opened: Database.Database[] = [];
function memoryDb() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v TEXT NOT NULL UNIQUE)');
  opened.push(db);
  return db;
}
afterEach(() => opened.splice(0).forEach((db) => db.open && db.close()));

const values = (db: Database.Database) =>
  db
    .prepare<[], { v: string }>('SELECT v FROM t ORDER BY v')
    .all()
    .map((row) => row.v);

describe('group commit (kernel/commit-group.ts)', () => {
  it('commits the writes of one turn together, and resolves each with its own result after the commit', async () => {
    const db = memoryDb();
    const commit = groupCommitOf(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const first = commit(() => insert.run('a').lastInsertRowid);
    const second = commit(() => insert.run('b').lastInsertRowid);
    expect(values(db)).toEqual([]); // nothing before the turn ends
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(values(db)).toEqual(['a', 'b']);
  });

  it('rolls back only the work that threw; the others of its group are committed', async () => {
    const db = memoryDb();
    const commit = groupCommitOf(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const kept = commit(() => insert.run('x'));
    const failed = commit(() => {
      insert.run('half-written');
      insert.run('x'); // UNIQUE: throws after a first write
    });
    await expect(failed).rejects.toThrow(/UNIQUE/);
    await kept;
    expect(values(db)).toEqual(['x']);
  });

  it('a one-statement work runs without a savepoint: SQLite undoes its failed statement whole, the others commit', async () => {
    const db = memoryDb();
    const commit = groupCommitOf(db);
    const kept = commit(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('x'), { oneStatement: true });
    // One statement, two rows: the second breaks UNIQUE after the first was written.
    const failed = commit(() => db.prepare("INSERT INTO t (v) VALUES ('y'), ('x')").run(), {
      oneStatement: true,
    });
    const after = commit(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('z'), { oneStatement: true });
    await expect(failed).rejects.toThrow(/UNIQUE/);
    await Promise.all([kept, after]);
    expect(values(db)).toEqual(['x', 'z']);
  });

  it('flush() commits what waits at once (before the database closes)', async () => {
    const db = memoryDb();
    const commit = groupCommitOf(db);
    const done = commit(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('now'));
    commit.flush();
    expect(values(db)).toEqual(['now']);
    await done;
  });

  it('rejects every waiter when the commit cannot happen', async () => {
    const db = memoryDb();
    const commit = groupCommitOf(db);
    const waiting = commit(() => 1);
    db.close();
    await expect(waiting).rejects.toThrow();
  });

  it('runs a beforeCommit hook inside each group and what it returns after the commit, never after a failed one', async () => {
    const db = memoryDb();
    const commit = groupCommitOf(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const seen: string[] = [];
    commit.beforeCommit(() => {
      seen.push(`hook sees ${values(db).join(',')}`);
      insert.run(`hook-${seen.length}`);
      return () => seen.push(`after: ${values(db).join(',')}`);
    });
    await commit(() => insert.run('a'));
    expect(seen).toEqual(['hook sees a', 'after: a,hook-1']);
    const failing = commit(() => insert.run('b'));
    db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON t WHEN NEW.v = 'hook-3' BEGIN SELECT RAISE(ABORT, 'no'); END",
    );
    await expect(failing).rejects.toThrow('no');
    expect(seen.at(-1)).toBe('hook sees a,b,hook-1'); // the hook ran, its insert failed the commit
    expect(values(db)).toEqual(['a', 'hook-1']);
  });
});
