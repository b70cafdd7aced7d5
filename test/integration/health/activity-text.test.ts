import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * GET /api/activity?q= (issue #42.3): Activity filtered by text as well as type, a scan of the
 * 14 days the log keeps, newest first, stopping at `limit` matches. Case is ignored; `%` and `_`
 * are what they are, not patterns. The log is written by a first bridge, filled as a 14-day log
 * would be, and read by a second on the same data dir.
 */
const data = tempDir('activity-text');
let bridge: TestBridge;

const messages = [
  ['posting.scheduled', 'Post “Nadia Haddad on community radio…” scheduled on microblog'],
  ['guests.stage', 'Guest Nadia Haddad moved from Confirmed to Scheduled'],
  ['guests.stage', 'Guest Marcus Bell moved from Scheduled to Recorded'],
  ['analytics.progress', 'Collection: 50% of the platforms read'],
  ['analytics.progress', 'Collection: 500 posts read'],
  ['broadcasts.status', 'Broadcast “The Studio Hour #12 Live” is now ready'],
] as const;

beforeAll(async () => {
  const first = await startTestBridge({}, { dataDir: data.path });
  await first.stop();
  const db = new Database(path.join(data.path, 'bridge.sqlite'));
  const insert = db.prepare(
    "INSERT INTO activity (at, type, level, message, data) VALUES (?, ?, 'info', ?, NULL)",
  );
  const at = Date.now() - 13 * 86_400_000;
  messages.forEach(([type, message], i) =>
    insert.run(new Date(at + i * 60_000).toISOString(), type, message),
  );
  db.close();
  bridge = await startTestBridge({}, { dataDir: data.path });
});
afterAll(async () => {
  await bridge?.close();
  data.remove();
});

const listed = async (query: string) => {
  const answer = await bridge.call('GET', `/api/activity?${query}`);
  expect(answer.status).toBe(200);
  return (answer.body.data as Array<{ type: string; message: string }>).map((event) => event.message);
};

describe('GET /api/activity by text', () => {
  it('lists the events whose message holds the text, any case, newest first', async () => {
    expect(await listed('q=nadia%20haddad')).toEqual([messages[1][1], messages[0][1]]);
    expect(await listed('q=STUDIO%20HOUR%20%2312')).toEqual([messages[5][1]]);
    expect(await listed('q=nobody-said-this')).toEqual([]);
  });

  it('combines with the type filter and the limit', async () => {
    expect(await listed('q=nadia&typePrefix=guests')).toEqual([messages[1][1]]);
    expect(await listed('q=nadia&type=posting.scheduled')).toEqual([messages[0][1]]);
    expect(await listed('q=moved&limit=1')).toEqual([messages[2][1]]);
  });

  it('reads % and _ as themselves', async () => {
    expect(await listed('q=50%25')).toEqual([messages[3][1]]);
    expect(await listed('q=5_0')).toEqual([]);
  });

  it('refuses a text of one character or of more than 100, naming q', async () => {
    // "j " is 2 characters but 1 besides spaces: refused as /openapi.json states it (its pattern), not
    // documented valid and refused once trimmed; 100 characters and a space is over 100 as sent.
    for (const q of ['a', 'x'.repeat(101), 'j ', `${'x'.repeat(100)} `]) {
      const answer = await bridge.call('GET', `/api/activity?q=${encodeURIComponent(q)}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/\bq\b/);
    }
  });
});
