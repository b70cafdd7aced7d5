import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.9 "Cancel never deletes a live post unasked": a published post whose CRM record
 * went back to Scheduled is held for the operator — `live_hold` = 'waiting-operator' is honoured
 * by webhooks, catch-up and the late rule alike (nothing sent, cancelled or written) — and one
 * whose record was deleted keeps its live post, `live_hold` = 'crm-deleted' (the dashboard says
 * "CRM record deleted, still live"). NULL: no hold.
 */
export const liveHolds: Migration = {
  version: 18,
  name: 'posting-live-post-holds',
  sql: `ALTER TABLE social_post_ledger ADD COLUMN live_hold TEXT;`,
};
