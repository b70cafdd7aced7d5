import { afterEach, describe, expect, it } from 'vitest';
import { migrations as webhookMigrations } from '../../../main/areas/webhooks/migrations/index.js';
import { createRecordMarks } from '../../../main/areas/webhooks/record-marks.js';
import { migrate, openDatabase, type Db } from '../../../main/kernel/db.js';

const opened: Db[] = [];
function database(upTo = Infinity): Db {
  const db = openDatabase(':memory:');
  migrate(
    db,
    webhookMigrations.filter((migration) => migration.version <= upTo),
  );
  opened.push(db);
  return db;
}
afterEach(() => opened.splice(0).forEach((db) => db.open && db.close()));

const now = '2026-11-24T04:00:00.000Z';
const updated = (key: string, hash = 'h1') => ({ event: 'social-updated', hash, key });

describe('record marks (DESIGN §6.1.2)', () => {
  it('an item raises its record mark unless an identical item set it; a write-back always raises it', () => {
    const marks = createRecordMarks(database());
    expect(marks.raiseForItem('SocialPost', 'p1', updated('1:0'), now)).toBe(1);
    // Identical, nothing in between: a redelivery, the mark stays the first item's.
    expect(marks.raiseForItem('SocialPost', 'p1', updated('2:0'), now)).toBeNull();
    expect(marks.setter('SocialPost', 'p1')).toEqual({ mark: 1, key: '1:0' });
    expect(marks.raiseForItem('SocialPost', 'p1', updated('3:0', 'h2'), now)).toBe(2);
    // The first bytes again, but another item came between: a real repeat.
    expect(marks.raiseForItem('SocialPost', 'p1', updated('4:0'), now)).toBe(3);
    expect(marks.touch('SocialPost', 'p1', now)).toBe(4); // the bridge wrote the record
    expect(marks.setter('SocialPost', 'p1')).toEqual({ mark: 4, key: null });
    expect(marks.raiseForItem('SocialPost', 'p1', updated('5:0'), now)).toBe(5);
    // The same bytes for another event are another item; another record has its own mark.
    expect(marks.raiseForItem('SocialPost', 'p1', { ...updated('6:0'), event: 'social-created' }, now)).toBe(
      6,
    );
    expect(marks.raiseForItem('SocialPost', 'p2', updated('7:0'), now)).toBe(1);
    // Raised whatever set it (an item whose setter's log row is gone runs again).
    expect(marks.raiseForItem('SocialPost', 'p2', updated('8:0'), now, { evenIfSame: true })).toBe(2);
    expect(marks.setter('SocialPost', 'p2')).toEqual({ mark: 2, key: '8:0' });
  });

  it('recognises after the upgrade a redelivery of an item received before it (migration 013)', () => {
    const db = database(12);
    // Two records as the bridge left them before: p1's mark set by an item; p2's raised since by a write-back.
    db.exec(`
      INSERT INTO webhook_deliveries (id, received_at, event, item_count, payload) VALUES (1, '${now}', 'social-updated', 2, '[]');
      INSERT INTO processed_events (key, event, entity, entity_id, item_hash, delivery_id, mark, job_id, status, created_at)
        VALUES ('1:0', 'social-updated', 'SocialPost', 'p1', 'h1', 1, 1, 11, 'done', '${now}'),
               ('1:1', 'social-updated', 'SocialPost', 'p2', 'h1', 1, 1, 12, 'done', '${now}');
      INSERT INTO record_marks (entity, record_id, mark, touched_at)
        VALUES ('SocialPost', 'p1', 1, '${now}'), ('SocialPost', 'p2', 2, '${now}');
    `);
    migrate(db, webhookMigrations);
    const marks = createRecordMarks(db);
    expect(marks.setter('SocialPost', 'p1')).toEqual({ mark: 1, key: '1:0' });
    expect(marks.raiseForItem('SocialPost', 'p1', updated('2:0'), now)).toBeNull();
    expect(marks.raiseForItem('SocialPost', 'p2', updated('2:1'), now)).toBe(3);
  });
});
