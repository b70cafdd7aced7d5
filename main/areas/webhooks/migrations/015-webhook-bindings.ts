import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §7: a webhook id (the `<webhookId>` of EspoCRM's signature) is bound to the route it was
 * first seen on. EspoCRM gives every webhook (one event, one URL) its own id and secret; the
 * same signed body sent to another route is a replay aimed elsewhere, refused with 401.
 */
export const webhookBindings: Migration = {
  version: 15,
  name: 'webhooks-bindings',
  sql: `
    CREATE TABLE webhook_bindings (
      webhook_id TEXT PRIMARY KEY,
      event TEXT NOT NULL,
      bound_at TEXT NOT NULL
    );
  `,
};
