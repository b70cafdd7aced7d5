import type { Db } from './db.js';
import type { StorageState } from './storage-state.js';

interface Pending {
  work: () => unknown;
  oneStatement: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Runs `work` in the next group commit; resolves with its result once that commit is on disk. */
export interface GroupCommit {
  /**
   * `oneStatement`: the work runs one SQL statement, and needs no savepoint of its own (SQLite
   * undoes a failed statement by itself, the rest of the group stays).
   */
  <T>(work: () => T, options?: { oneStatement?: boolean }): Promise<T>;
  /** Commits what is waiting now (before the database closes). */
  flush(): void;
  /**
   * `hook` runs inside every group's transaction, after its works, and may write too (the job
   * queue claims the jobs those works enqueued); what it returns runs once that commit is on disk.
   */
  beforeCommit(hook: () => (() => void) | undefined): void;
}

/**
 * Group commit: writes that must be durable before an answer (a webhook delivery, its items and
 * jobs) are collected for one turn of the event loop and committed together, each in its own
 * savepoint. A commit writes every page it touched to the WAL; twenty deliveries arriving together
 * touch the same few pages, so one commit for all of them costs about what one commit for each did,
 * and intake throughput stops being bound by commits. Each caller still answers only after the
 * commit that holds its rows: a kill -9 after a 2xx loses nothing.
 *
 * A `work` that throws rolls back its own savepoint only and rejects its own promise; the others
 * commit. If the commit itself fails, every caller of the group is rejected (nothing was stored).
 */
export function groupCommitOf(db: Db, storage?: StorageState): GroupCommit {
  let pending: Pending[] = [];
  let scheduled: NodeJS.Immediate | null = null;
  const hooks: (() => (() => void) | undefined)[] = [];
  // A nested better-sqlite3 transaction is a savepoint: released on success, rolled back on a throw.
  const inSavepoint = db.transaction((work: () => unknown) => work());
  const commitAll = db.transaction((group: Pending[]) => {
    const results = group.map((entry): { ok: true; value: unknown } | { ok: false; error: unknown } => {
      try {
        return { ok: true, value: entry.oneStatement ? entry.work() : inSavepoint(entry.work) };
      } catch (error) {
        // Some errors (SQLITE_FULL, SQLITE_IOERR, ...) make SQLite roll back the whole transaction,
        // not just the savepoint: the works before are undone, and the ones after would run
        // outside any transaction, each committed on its own. The group fails as one, with that error.
        if (!db.inTransaction) throw error;
        return { ok: false, error };
      }
    });
    const afterCommit = hooks.map((hook) => hook());
    return { results, afterCommit };
  });

  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = null;
    if (pending.length === 0) return;
    const group = pending;
    pending = [];
    let committed;
    try {
      committed = commitAll.immediate(group);
    } catch (error) {
      storage?.noteIfFull(error);
      for (const entry of group) entry.reject(error);
      return;
    }
    // A full disk is told to /health when met, and forgotten when a write lands again (DESIGN §7).
    let wrote = false;
    for (const result of committed.results) {
      if (result.ok) wrote = true;
      else storage?.noteIfFull(result.error);
    }
    if (wrote) storage?.noteWritten();
    for (const after of committed.afterCommit) after?.();
    committed.results.forEach((result, index) => {
      const entry = group[index]!;
      if (result.ok) entry.resolve(result.value);
      else entry.reject(result.error);
    });
  };

  const run = <T>(work: () => T, options: { oneStatement?: boolean } = {}) =>
    new Promise<T>((resolve, reject) => {
      pending.push({
        work,
        oneStatement: options.oneStatement ?? false,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      scheduled ??= setImmediate(flush);
    });
  return Object.assign(run, {
    flush,
    beforeCommit: (hook: () => (() => void) | undefined) => void hooks.push(hook),
  });
}
