import type { Db } from '../../kernel/db.js';
import { truncateWalSoon } from '../../kernel/wal-scrub.js';

export type LedgerStatus = 'waiting' | 'retrying' | 'publishing' | 'published' | 'failed';

export interface LedgerRow {
  record_id: string;
  platform: string | null;
  content_production_id: string | null;
  status: LedgerStatus;
  generation: number;
  waiting_on: string | null;
  note: string | null;
  result: string | null;
  written_back: number;
  dependents_released: number;
  claimed_at: string | null;
  updated_at: string;
}

export interface LedgerSubject {
  recordId: string;
  platform: string | null;
  contentProductionId: string | null;
}

/**
 * A record may be claimed when nothing is in flight for it and no outcome is waiting to be
 * written back: never seen, waiting, released for a retry, or failed with the failure already
 * on the CRM record (a person set it back to Queued).
 */
const CLAIMABLE = `(publish_ledger.status IN ('waiting', 'retrying') OR (publish_ledger.status = 'failed' AND publish_ledger.written_back = 1))`;

/** The publish ledger of migration 004: claimed before every gateway call. */
export function createPublishingRepo(db: Db) {
  const get = db.prepare<[string], LedgerRow>('SELECT * FROM publish_ledger WHERE record_id = ?');
  const getMany = db.prepare<[string], LedgerRow>(
    'SELECT * FROM publish_ledger WHERE record_id IN (SELECT value FROM json_each(?))',
  );
  const claim = db.prepare<{ id: string; platform: string | null; cp: string | null; now: string }>(
    `INSERT INTO publish_ledger (record_id, platform, content_production_id, status, generation, claimed_at, updated_at)
     VALUES (:id, :platform, :cp, 'publishing', 1, :now, :now)
     ON CONFLICT (record_id) DO UPDATE SET
       status = 'publishing', generation = publish_ledger.generation + 1, platform = excluded.platform,
       content_production_id = excluded.content_production_id, waiting_on = NULL, note = NULL, result = NULL,
       written_back = 0, dependents_released = 0, claimed_at = excluded.claimed_at, updated_at = excluded.updated_at
     WHERE ${CLAIMABLE}`,
  );
  const wait = db.prepare<{
    id: string;
    platform: string | null;
    cp: string | null;
    on: string;
    note: string;
    now: string;
  }>(
    `INSERT INTO publish_ledger (record_id, platform, content_production_id, status, waiting_on, note, updated_at)
     VALUES (:id, :platform, :cp, 'waiting', :on, :note, :now)
     ON CONFLICT (record_id) DO UPDATE SET
       status = 'waiting', platform = excluded.platform, content_production_id = excluded.content_production_id,
       waiting_on = excluded.waiting_on, note = excluded.note, updated_at = excluded.updated_at
     WHERE ${CLAIMABLE}`,
  );
  const published = db.prepare<{ id: string; generation: number; result: string; now: string }>(
    `UPDATE publish_ledger SET status = 'published', result = :result, note = NULL, updated_at = :now
     WHERE record_id = :id AND status = 'publishing' AND generation = :generation`,
  );
  const failed = db.prepare<{ id: string; generation: number; note: string; now: string }>(
    `UPDATE publish_ledger SET status = 'failed', note = :note, written_back = 0, updated_at = :now
     WHERE record_id = :id AND status = 'publishing' AND generation = :generation`,
  );
  const release = db.prepare<{ id: string; generation: number; note: string; now: string }>(
    `UPDATE publish_ledger SET status = 'retrying', note = :note, updated_at = :now
     WHERE record_id = :id AND status = 'publishing' AND generation = :generation`,
  );
  const writtenBack = db.prepare<{ id: string; now: string }>(
    `UPDATE publish_ledger SET written_back = 1, updated_at = :now
     WHERE record_id = :id AND status IN ('published', 'failed')`,
  );
  const dependentsReleased = db.prepare<{ id: string; now: string }>(
    `UPDATE publish_ledger SET dependents_released = 1, updated_at = :now WHERE record_id = :id AND status = 'published'`,
  );
  const abandon = db.prepare<{ id: string; before: string; note: string; now: string }>(
    `UPDATE publish_ledger SET status = 'failed', note = :note, written_back = 1, updated_at = :now
     WHERE record_id = :id AND status = 'publishing' AND claimed_at < :before`,
  );
  // Published, on the record, dependents handed on, and still holding the gateway's stream key.
  const keyHolders = db.prepare<[string], LedgerRow>(
    `SELECT * FROM publish_ledger
     WHERE content_production_id = ? AND status = 'published' AND written_back = 1 AND dependents_released = 1
       AND json_extract(result, '$.streamKey') IS NOT NULL`,
  );
  const forgetKey = db.prepare<{ id: string; now: string }>(
    `UPDATE publish_ledger SET result = json_remove(result, '$.streamKey'), updated_at = :now
     WHERE record_id = :id AND status = 'published' AND written_back = 1 AND dependents_released = 1
       AND json_extract(result, '$.streamKey') IS NOT NULL`,
  );
  // One row per PlatformPublish the bridge handled: few enough to read without an index.
  const stuck = db.prepare<[string], LedgerRow>(
    `SELECT * FROM publish_ledger WHERE status = 'publishing' AND claimed_at < ? ORDER BY claimed_at LIMIT 20`,
  );
  const queued = db.prepare<[], LedgerRow>(
    "SELECT * FROM publish_ledger WHERE status IN ('waiting', 'retrying') ORDER BY record_id",
  );
  const dropQueued = db.prepare<{ id: string; note: string; now: string }>(
    `UPDATE publish_ledger SET status = 'failed', note = :note, written_back = 1, updated_at = :now
     WHERE record_id = :id AND status IN ('waiting', 'retrying')`,
  );
  const subject = (s: LedgerSubject) => ({ id: s.recordId, platform: s.platform, cp: s.contentProductionId });

  return {
    get: (recordId: string) => get.get(recordId),
    getMany: (recordIds: readonly string[]) => getMany.all(JSON.stringify(recordIds)),
    /** The claim's generation, or null when another run holds the record or an outcome is still to write back. */
    claim(s: LedgerSubject, now: string): number | null {
      return db.transaction(() => {
        if (claim.run({ ...subject(s), now }).changes === 0) return null;
        return get.get(s.recordId)?.generation ?? null;
      })();
    },
    /** False when the record is claimed or has an outcome meanwhile (nothing changed). */
    markWaiting(s: LedgerSubject, waitingOn: string, note: string, now: string): boolean {
      return wait.run({ ...subject(s), on: waitingOn, note, now }).changes > 0;
    },
    markPublished: (recordId: string, generation: number, result: unknown, now: string) =>
      published.run({ id: recordId, generation, result: JSON.stringify(result), now }).changes > 0,
    markFailed: (recordId: string, generation: number, note: string, now: string) =>
      failed.run({ id: recordId, generation, note, now }).changes > 0,
    /** A transient failure before anything was sent: claimable again by the queue's retry. */
    release: (recordId: string, generation: number, note: string, now: string) =>
      release.run({ id: recordId, generation, note, now }).changes > 0,
    markWrittenBack: (recordId: string, now: string) => writtenBack.run({ id: recordId, now }).changes > 0,
    markDependentsReleased: (recordId: string, now: string) =>
      dependentsReleased.run({ id: recordId, now }).changes > 0,
    /** The production's published records whose stored result still holds a stream key. */
    streamKeyHolders: (contentProductionId: string) => keyHolders.all(contentProductionId),
    /** Drops the stored stream key of a published record that is on the CRM and has handed on its dependents. */
    forgetStreamKey: (recordId: string, now: string) => {
      const forgot = forgetKey.run({ id: recordId, now }).changes > 0;
      // The key's old page is still in the WAL: emptied by a checkpoint (DESIGN §7).
      if (forgot) truncateWalSoon(db);
      return forgot;
    },
    /** Publishes sent (claimed) before `before` whose outcome is still not recorded. */
    publishingSince: (before: string) => stuck.all(before),
    /** Publishes the bridge will still make (waiting on a primary, or released for a retry). */
    queued: (): LedgerRow[] => queued.all(),
    /** A queued publish whose record is gone: it ends failed, with nothing to write back. */
    dropQueued: (recordId: string, note: string, now: string): boolean =>
      dropQueued.run({ id: recordId, note, now }).changes > 0,
    /** Operator retry of a claim whose run vanished (the bridge stopped mid-call): outcome unknown. */
    abandonStale: (recordId: string, claimedBefore: string, note: string, now: string) =>
      abandon.run({ id: recordId, before: claimedBefore, note, now }).changes > 0,
  };
}
export type PublishingRepo = ReturnType<typeof createPublishingRepo>;
