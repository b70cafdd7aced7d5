import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §7 "Replays are cheap": a delivery body byte-identical to one stored within 14 days is
 * stored once. Every arrival keeps its own row (its items are still decided one by one, §6.1);
 * a replay's row holds an empty payload and `payload_of`, the id of the row holding the bytes.
 * `payload_hash` is the SHA-256 of the body as received, set on the rows that hold a payload.
 */
export const payloadsByHash: Migration = {
  version: 14,
  name: 'webhooks-payloads-by-hash',
  sql: `
    ALTER TABLE webhook_deliveries ADD COLUMN payload_hash TEXT;
    ALTER TABLE webhook_deliveries ADD COLUMN payload_of INTEGER;
    CREATE INDEX webhook_deliveries_by_payload_hash ON webhook_deliveries (payload_hash)
      WHERE payload_hash IS NOT NULL;
  `,
};
