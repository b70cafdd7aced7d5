import type { ItemOutcome } from '../../../shared/api/webhooks.js';
import type { Db } from '../../kernel/db.js';

export interface ProcessedEventRow {
  key: string;
  event: string;
  entity_id: string;
  delivery_id: number;
  job_id: number | null;
  status: 'pending' | 'done';
  outcome: string | null;
  created_at: string;
  finished_at: string | null;
}

export function createWebhooksRepo(db: Db) {
  const insertDelivery = db.prepare<[string, string, number, string | null, string]>(
    'INSERT INTO webhook_deliveries (received_at, event, item_count, signed_by, payload) VALUES (?, ?, ?, ?, ?)',
  );
  const finishDelivery = db.prepare<[number, string, number]>(
    'UPDATE webhook_deliveries SET response_status = ?, finished_at = ? WHERE id = ?',
  );
  const claimEvent = db.prepare<[string, string, string, number, string]>(
    `INSERT INTO processed_events (key, event, entity_id, delivery_id, status, created_at)
     VALUES (?, ?, ?, ?, 'pending', ?) ON CONFLICT (key) DO NOTHING`,
  );
  const setJob = db.prepare<[number, string]>('UPDATE processed_events SET job_id = ? WHERE key = ?');
  const getEvent = db.prepare<[string], ProcessedEventRow>('SELECT * FROM processed_events WHERE key = ?');
  const finishEvent = db.prepare<[string, string, string]>(
    "UPDATE processed_events SET status = 'done', outcome = ?, finished_at = ? WHERE key = ? AND status = 'pending'",
  );
  const pruneDeliveries = db.prepare<[string]>('DELETE FROM webhook_deliveries WHERE received_at < ?');

  return {
    recordDelivery(
      input: { event: string; itemCount: number; signedBy: string | null; payload: string },
      now: string,
    ) {
      return Number(
        insertDelivery.run(now, input.event, input.itemCount, input.signedBy, input.payload).lastInsertRowid,
      );
    },
    finishDelivery: (id: number, status: number, now: string) => finishDelivery.run(status, now, id),
    /** True when this call created the row (first sighting of the item). */
    claimEvent: (key: string, event: string, entityId: string, deliveryId: number, now: string) =>
      claimEvent.run(key, event, entityId, deliveryId, now).changes > 0,
    attachJob: (key: string, jobId: number) => setJob.run(jobId, key),
    getEvent: (key: string) => getEvent.get(key),
    finishEvent: (key: string, outcome: ItemOutcome, now: string) =>
      finishEvent.run(JSON.stringify(outcome), now, key).changes > 0,
    /** Deliveries (and, by cascade, their processed events) older than the retention. */
    pruneBefore: (isoTime: string) => pruneDeliveries.run(isoTime).changes,
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
