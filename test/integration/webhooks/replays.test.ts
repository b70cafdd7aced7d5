import { statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callSignedWebhook, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { jobsIdle } from '../../support/settle.js';

/*
 * Issue #24.2, DESIGN §7 "Replays are cheap": one signed 1 MB delivery replayed 100 times added
 * 102 MB to the database. A body byte-identical to one stored within 14 days is stored once (by
 * hash); every arrival is still logged as a delivery and decided item by item (repeats.test.ts).
 */

const SECRET = 'whsec-replays';
let bridge: TestBridge;

beforeAll(async () => {
  // No CRM: a guest-created item has nothing to do, and the test is about what is stored.
  bridge = await startTestBridge({ CRM_WEBHOOK_SECRETS: SECRET }, { areas: ['health', 'webhooks'] });
});
afterAll(async () => {
  await bridge?.close();
});

/** The database's size: the file and its WAL (pages written there are the growth too). */
function dbBytes(dir: string): number {
  const size = (file: string) => {
    try {
      return statSync(path.join(dir, file)).size;
    } catch {
      return 0;
    }
  };
  return size('bridge.sqlite') + size('bridge.sqlite-wal');
}

function checkpoint(dir: string): void {
  const db = new Database(path.join(dir, 'bridge.sqlite'));
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

describe('a replayed signed delivery', () => {
  it('100 replays of a 1 MB body add under 2 MB; every arrival is logged and answered', async () => {
    const item = { id: 'guest-replayed', name: 'Replayed', notes: 'n'.repeat(1_000_000 - 200) };
    const raw = JSON.stringify([item]);
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(1_000_000);
    const send = () =>
      callSignedWebhook(bridge.url, 'guest-created', raw, { webhookId: 'wh-replay', secret: SECRET });

    expect((await send()).status).toBe(200);
    await jobsIdle(bridge.url, 'webhook.item');
    checkpoint(bridge.dataDir);
    const before = dbBytes(bridge.dataDir);
    for (let n = 0; n < 100; n++) expect((await send()).status).toBe(200);
    checkpoint(bridge.dataDir);
    const grown = dbBytes(bridge.dataDir) - before;
    console.log(`100 replays of a 1 MB signed delivery: the database grew ${(grown / 1e6).toFixed(2)} MB`);
    expect(grown).toBeLessThan(2_000_000);

    // Every arrival is a delivery of its own, the body stored once.
    const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'), { readonly: true });
    try {
      const rows = db
        .prepare<[], { n: number; bodies: number }>(
          "SELECT count(*) AS n, sum(length(payload) > 0) AS bodies FROM webhook_deliveries WHERE event = 'guest-created'",
        )
        .get()!;
      expect(rows).toEqual({ n: 101, bodies: 1 });
    } finally {
      db.close();
    }
  }, 120_000);
});
