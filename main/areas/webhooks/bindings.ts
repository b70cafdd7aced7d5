import type { WebhookBinding, WebhookEvent } from '../../../shared/api/webhooks.js';
import type { Db } from '../../kernel/db.js';

interface BindingRow {
  webhook_id: string;
  event: WebhookEvent;
  bound_at: string;
}

/**
 * DESIGN §7: each signing webhook id and the one route (event) it may sign for, bound where it is
 * first seen. Read on every signed delivery, so kept in memory too (the table is its truth at start).
 */
export function createWebhookBindings(db: Db) {
  const insert = db.prepare<[string, string, string]>(
    'INSERT OR IGNORE INTO webhook_bindings (webhook_id, event, bound_at) VALUES (?, ?, ?)',
  );
  const remove = db.prepare<[string]>('DELETE FROM webhook_bindings WHERE webhook_id = ?');
  const all = db.prepare<[], BindingRow>('SELECT * FROM webhook_bindings ORDER BY bound_at, webhook_id');
  const byId = new Map<string, WebhookEvent>(all.all().map((row) => [row.webhook_id, row.event]));

  return {
    /**
     * The event `webhookId` is bound to: `event` itself when it was not bound yet (it is now), or
     * the other event it was first seen on.
     */
    bind(webhookId: string, event: WebhookEvent, now: string): WebhookEvent {
      const bound = byId.get(webhookId);
      if (bound !== undefined) return bound;
      insert.run(webhookId, event, now);
      byId.set(webhookId, event);
      return event;
    },
    list: (): WebhookBinding[] =>
      all.all().map((row) => ({ webhookId: row.webhook_id, event: row.event, boundAt: row.bound_at })),
    /** False when there was no such binding. */
    clear(webhookId: string): boolean {
      byId.delete(webhookId);
      return remove.run(webhookId).changes > 0;
    },
  };
}
export type WebhookBindings = ReturnType<typeof createWebhookBindings>;
