import type { Db } from './db.js';

/**
 * After a secret is redacted in place, its old copy still sits in the WAL until a checkpoint
 * copies the new pages back and the log is emptied (DESIGN §7). This asks for a
 * `wal_checkpoint(TRUNCATE)` after the current work (never inside a transaction), and tries again
 * every `retryMs` while a reader holds the log (the checkpoint answers busy) until it succeeds.
 */
const pending = new WeakMap<Db, NodeJS.Timeout>();

export function truncateWalSoon(db: Db, retryMs = 1_000): void {
  if (pending.has(db)) return;
  const attempt = (delayMs: number) => {
    const timer = setTimeout(() => {
      pending.delete(db);
      if (!db.open) return;
      if (db.inTransaction || !checkpointed(db)) attempt(retryMs);
    }, delayMs).unref();
    pending.set(db, timer);
  };
  attempt(0);
}

function checkpointed(db: Db): boolean {
  try {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return result?.busy === 0;
  } catch {
    return false; // SQLITE_BUSY or a full disk: the next try may succeed
  }
}
