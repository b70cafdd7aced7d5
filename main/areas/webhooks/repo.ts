import type { ItemOutcome } from '../../../shared/api/webhooks.js';
import { mappedRows, type Db } from '../../kernel/db.js';
import { pruneByIdBefore } from '../../kernel/prune-by-id.js';

const toItem = (row: ProcessedEventRow): ProcessedItem => ({
  ...row,
  outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as ItemOutcome),
});

/** An item of a delivery as the area reads it (its outcome parsed here, once). */
export interface ProcessedItem extends Omit<ProcessedEventRow, 'outcome'> {
  outcome: ItemOutcome | null;
}

interface ProcessedEventRow {
  key: string;
  event: string;
  entity_id: string;
  delivery_id: number;
  job_id: number | null;
  status: 'pending' | 'done';
  outcome: string | null;
  created_at: string;
  finished_at: string | null;
  /** Null on rows logged before migration 006 (content-hash keys). */
  entity: string | null;
  item_hash: string | null;
  mark: number | null;
  same_as: string | null;
  /** The run of its record's job that answers it (migration 026); null: a job of its own, or none. */
  job_run: number | null;
}

export interface NewItemRow {
  key: string;
  event: string;
  entity: string;
  entityId: string;
  itemHash: string;
  deliveryId: number;
  mark: number;
  /** A redelivery: the key of the item whose outcome answers it. */
  sameAs: string | null;
  jobId: number | null;
  /** The run of its record's job it waits for (issue #36.2). */
  jobRun?: number | null;
  /** Decided at once, in the commit that logs it: stored done. */
  outcome?: ItemOutcome;
}

export function createWebhooksRepo(db: Db) {
  const insertDelivery = db.prepare<
    [string, string, number, string | null, string, string | null, number | null]
  >(
    `INSERT INTO webhook_deliveries (received_at, event, item_count, signed_by, payload, payload_hash, payload_of)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  // The latest row holding these bytes, received since the cutoff (older ones are being pruned).
  const storedPayload = db.prepare<[string, string], { id: number }>(
    `SELECT id FROM webhook_deliveries WHERE payload_hash = ? AND received_at >= ? ORDER BY id DESC LIMIT 1`,
  );
  const finishDelivery = db.prepare<[number, string, number]>(
    'UPDATE webhook_deliveries SET response_status = ?, finished_at = ? WHERE id = ?',
  );
  // Positional parameters: this runs for every webhook item, and binding by name costs a lookup each.
  const insertItem = db.prepare<
    [
      key: string,
      event: string,
      entity: string,
      entityId: string,
      itemHash: string,
      deliveryId: number,
      mark: number,
      sameAs: string | null,
      jobId: number | null,
      jobRun: number | null,
      status: 'pending' | 'done',
      outcome: string | null,
      now: string,
      finishedAt: string | null,
    ]
  >(
    `INSERT INTO processed_events (key, event, entity, entity_id, item_hash, delivery_id, mark, same_as, job_id,
       job_run, status, outcome, created_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The items waiting for a run of their record's job that has ended (through the partial index).
  const finishWaiting = db.prepare<
    [string, string, number, number],
    { event: string; entity_id: string; delivery_id: number }
  >(
    `UPDATE processed_events SET status = 'done', outcome = ?, finished_at = ?
     WHERE job_id = ? AND job_run <= ? AND status = 'pending'
     RETURNING event, entity_id, delivery_id`,
  );
  const setJob = db.prepare<[number, string]>('UPDATE processed_events SET job_id = ? WHERE key = ?');
  const getEvent = mappedRows(
    db.prepare<[string], ProcessedEventRow>('SELECT * FROM processed_events WHERE key = ?'),
    toItem,
  );
  const finishEvent = db.prepare<[string, string, string]>(
    "UPDATE processed_events SET status = 'done', outcome = ?, finished_at = ? WHERE key = ? AND status = 'pending'",
  );
  const pruneDeliveries = pruneByIdBefore(db, 'webhook_deliveries', 'received_at');

  return {
    /**
     * Logs one arrival. With `payloadHash` (of the body as received), a body already stored since
     * `storedSince` is not stored again: the row points at the one holding it (DESIGN §7).
     */
    recordDelivery(
      input: {
        event: string;
        itemCount: number;
        signedBy: string | null;
        payload: string;
        payloadHash?: string | undefined;
        storedSince?: string;
      },
      now: string,
    ) {
      const { event, itemCount, signedBy, payload, payloadHash } = input;
      const stored =
        payloadHash === undefined ? undefined : storedPayload.get(payloadHash, input.storedSince ?? '');
      const row = stored
        ? insertDelivery.run(now, event, itemCount, signedBy, '', null, stored.id)
        : insertDelivery.run(now, event, itemCount, signedBy, payload, payloadHash ?? null, null);
      return Number(row.lastInsertRowid);
    },
    finishDelivery: (id: number, status: number, now: string) => finishDelivery.run(status, now, id),
    /** Logs one item of a delivery (its key is `<deliveryId>:<index>`). */
    logItem(row: NewItemRow, now: string) {
      const done = row.outcome !== undefined;
      return insertItem.run(
        row.key,
        row.event,
        row.entity,
        row.entityId,
        row.itemHash,
        row.deliveryId,
        row.mark,
        row.sameAs,
        row.jobId,
        row.jobRun ?? null,
        done ? 'done' : 'pending',
        done ? JSON.stringify(row.outcome) : null,
        now,
        done ? now : null,
      );
    },
    attachJob: (key: string, jobId: number) => setJob.run(jobId, key),
    getEvent: (key: string) => getEvent.get(key),
    finishEvent: (key: string, outcome: ItemOutcome, now: string) =>
      finishEvent.run(JSON.stringify(outcome), now, key).changes > 0,
    /** A run of a record's job ended: the items waiting for it (or an earlier run) take its outcome. */
    finishWaiting: (jobId: number, run: number, outcome: ItemOutcome, now: string) =>
      finishWaiting.all(JSON.stringify(outcome), now, jobId, run),
    /** Deliveries (and, by cascade, their processed events) older than the retention. */
    pruneBefore: pruneDeliveries,
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
