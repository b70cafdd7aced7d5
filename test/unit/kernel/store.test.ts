import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../main/kernel/db.js';
import { activityListSql, createActivityRepo, prefixEnd } from '../../../main/kernel/activity/repo.js';
import { createJobsRepo, jobsListSql } from '../../../main/kernel/jobs/repo.js';
import { createWebhooksRepo } from '../../../main/areas/webhooks/repo.js';
import { migrations as webhookMigrations } from '../../../main/areas/webhooks/migrations/index.js';
import { migrations } from '../../../main/kernel/migrations/index.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

const dirs: TempDir[] = [];
const opened: Db[] = [];
function fresh(): Db {
  const dir = tempDir('store');
  dirs.push(dir);
  const db = openDatabase(path.join(dir.path, 'bridge.sqlite'));
  opened.push(db);
  return db;
}
afterEach(() => {
  opened.splice(0).forEach((db) => db.open && db.close());
  dirs.splice(0).forEach((dir) => dir.remove());
});

/** SQLite's plan for `sql`, its steps joined by ' | '. */
const queryPlan = (db: Db, sql: string, params: Record<string, unknown> = {}) =>
  db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(params)
    .map((row) => (row as { detail: string }).detail)
    .join(' | ');

describe('store (DESIGN §7)', () => {
  it('sets the pragmas', () => {
    const db = fresh();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
  });

  it('migrates from empty to every numbered migration, and a re-run is a no-op', () => {
    const db = fresh();
    const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions).toEqual(migrations.map((m) => m.version).sort((a, b) => a - b));
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining(['activity', 'webhook_deliveries', 'processed_events', 'jobs', 'settings']),
    );
    expect(migrate(db)).toEqual([]);
  });

  it("runs an area's migration after the shipped ones, once, and refuses a number taken twice", () => {
    const db = fresh();
    const mine = {
      version: 900,
      name: 'area-probe',
      sql: 'CREATE TABLE area_probe (id INTEGER PRIMARY KEY)',
    };
    expect(migrate(db, [mine])).toEqual([900]);
    expect(migrate(db, [mine])).toEqual([]);
    expect(() => migrate(db, [{ ...mine, version: 1 }])).toThrow('two migrations are numbered 1');
  });

  it('claims a job once: the conditional update loses for the second claimer', () => {
    const db = fresh();
    const jobs = createJobsRepo(db);
    const now = new Date().toISOString();
    jobs.insert({ kind: 'k', payload: { a: 1 }, runAt: now, maxAttempts: 3 }, now);
    const first = jobs.claimNext(now, ['k']);
    expect(first?.status).toBe('running');
    expect(jobs.claimNext(now, ['k'])).toBeUndefined();
  });

  it('runs one job at a time per lane, in order', () => {
    const db = fresh();
    const jobs = createJobsRepo(db);
    const now = new Date().toISOString();
    const a = jobs.insert({ kind: 'k', payload: 1, lane: 'SocialPost:1', runAt: now, maxAttempts: 3 }, now);
    const b = jobs.insert({ kind: 'k', payload: 2, lane: 'SocialPost:1', runAt: now, maxAttempts: 3 }, now);
    const c = jobs.insert({ kind: 'k', payload: 3, lane: 'SocialPost:2', runAt: now, maxAttempts: 3 }, now);
    expect(jobs.claimNext(now, ['k'])?.id).toBe(a.id);
    expect(jobs.claimNext(now, ['k'])?.id).toBe(c.id);
    expect(jobs.claimNext(now, ['k'])).toBeUndefined();
    jobs.markDone(a, null, now);
    expect(jobs.claimNext(now, ['k'])?.id).toBe(b.id);
  });

  it('deduplicates by key and recovers jobs left running by a dead process', () => {
    const db = fresh();
    const jobs = createJobsRepo(db);
    const now = new Date().toISOString();
    const one = jobs.insert({ kind: 'k', payload: 1, dedupeKey: 'same', runAt: now, maxAttempts: 3 }, now);
    const two = jobs.insert({ kind: 'k', payload: 2, dedupeKey: 'same', runAt: now, maxAttempts: 3 }, now);
    expect(two.id).toBe(one.id);
    jobs.claimNext(now, ['k']);
    expect(jobs.recoverInterrupted()).toBe(1);
    expect(jobs.get(one.id)?.status).toBe('pending');
  });

  it('lists activity through the index of its filter: a rare type is found without reading the whole log', () => {
    const db = fresh();
    const plan = (filter: Parameters<typeof activityListSql>[0]) =>
      queryPlan(db, activityListSql(filter), {
        limit: 10,
        ...(filter.level ? { level: 'error' } : {}),
        ...(filter.type ? { type: 'webhook.failed' } : {}),
        ...(filter.beforeId ? { beforeId: 100 } : {}),
        ...(filter.text ? { text: '%nadia%' } : {}),
      });
    // Text (issue #42.3): a scan newest first that stops at the limit, never a sort of the whole log.
    expect(plan({ type: false, level: false, beforeId: false, text: true })).not.toContain('TEMP B-TREE');
    expect(plan({ type: true, level: false, beforeId: false, text: true })).toContain('activity_by_type');
    expect(plan({ type: true, level: false, beforeId: false })).toContain('activity_by_type');
    expect(plan({ type: true, level: false, beforeId: true })).toMatch(
      /activity_by_type \(type=\? AND id<\?\)/,
    );
    expect(plan({ type: false, level: true, beforeId: true })).toMatch(
      /activity_by_level \(level=\? AND id<\?\)/,
    );
    expect(plan({ type: false, level: false, beforeId: true })).toMatch(
      /activity USING INTEGER PRIMARY KEY \(rowid<\?\)/,
    );

    const repo = createActivityRepo(db);
    const at = new Date().toISOString();
    repo.insertAll(
      Array.from({ length: 9 }, (_, i) => ({
        id: i + 1,
        at,
        type: i % 3 === 0 ? 'webhook.failed' : 'webhook.received',
        level: i % 3 === 0 ? ('error' as const) : ('info' as const),
        message: `event ${i + 1}`,
        data: null,
      })),
    );
    const ids = (filter: Parameters<typeof repo.list>[0]) => repo.list(filter).map((event) => event.id);
    expect(ids({ limit: 10 })).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(ids({ limit: 10, type: 'webhook.failed' })).toEqual([7, 4, 1]);
    expect(ids({ limit: 1, type: 'webhook.failed', beforeId: 7 })).toEqual([4]);
    expect(ids({ limit: 10, level: 'info', beforeId: 6 })).toEqual([5, 3, 2]);
    expect(ids({ limit: 10, level: 'error', type: 'webhook.received' })).toEqual([]);
    expect(ids({ limit: 2, beforeId: 3 })).toEqual([2, 1]);
  });

  it('lists activity by the start of its type through the type index, "webhook" finding webhook.* only', () => {
    expect(prefixEnd('posting')).toBe('postinh');
    expect(prefixEnd('webhook.')).toBe('webhook/');
    const db = fresh();
    const sql = activityListSql({ type: false, typePrefix: true, level: false, beforeId: true });
    expect(queryPlan(db, sql, { limit: 10, typeFrom: 'web', typeTo: 'wec', beforeId: 100 })).toMatch(
      /activity_by_type \(type>\? AND type<\?\)/,
    );

    const repo = createActivityRepo(db);
    const at = new Date().toISOString();
    const types = ['webhook.received', 'webhooks', 'web', 'posting.scheduled', 'webhook.failed', 'webhook'];
    repo.insertAll(
      types.map((type, i) => ({ id: i + 1, at, type, level: 'info' as const, message: type, data: null })),
    );
    const listed = (typePrefix: string, beforeId?: number) =>
      repo.list({ limit: 10, typePrefix, ...(beforeId ? { beforeId } : {}) }).map((event) => event.type);
    expect(listed('webhook.')).toEqual(['webhook.failed', 'webhook.received']);
    expect(listed('webhook')).toEqual(['webhook', 'webhook.failed', 'webhooks', 'webhook.received']);
    expect(listed('webhook.', 5)).toEqual(['webhook.received']);
    expect(listed('post')).toEqual(['posting.scheduled']);
    expect(listed('x')).toEqual([]);
  });

  it('lists jobs by status through the partial indexes: failed or unfinished jobs are found without reading the finished ones', () => {
    const db = fresh();
    const plan = (status: Parameters<typeof jobsListSql>[0]['status'], kind = false) =>
      queryPlan(db, jobsListSql({ status, kind }), { limit: 10, ...(kind ? { kind: 'k' } : {}) });
    expect(plan('failed')).toContain('jobs_failed');
    expect(plan('failed', true)).toContain('jobs_failed');
    expect(plan('pending')).toMatch(/jobs_by_lane|jobs_due/);
    expect(plan('running')).toContain('jobs_by_lane');

    const jobs = createJobsRepo(db);
    const now = new Date().toISOString();
    const add = (kind: string) => jobs.insert({ kind, payload: null, runAt: now, maxAttempts: 1 }, now);
    const [a, b, c, d] = [add('k'), add('other'), add('k'), add('k')];
    jobs.markDone(jobs.claimNext(now, ['k'])!, null, now); // a
    jobs.markFailed(jobs.claimNext(now, ['other'])!.id, 'broke', now); // b
    jobs.claimNext(now, ['k']); // c runs, d waits
    const ids = (filter: Parameters<typeof jobs.list>[0]) => jobs.list(filter).map((job) => job.id);
    expect(ids({ limit: 10 })).toEqual([d.id, c.id, b.id, a.id]);
    expect(ids({ limit: 10, status: 'failed' })).toEqual([b.id]);
    expect(ids({ limit: 10, status: 'failed', kind: 'k' })).toEqual([]);
    expect(ids({ limit: 10, status: 'running' })).toEqual([c.id]);
    expect(ids({ limit: 10, status: 'pending' })).toEqual([d.id]);
    expect(ids({ limit: 10, status: 'done', kind: 'k' })).toEqual([a.id]);
    expect(ids({ limit: 2, kind: 'k' })).toEqual([d.id, c.id]);
  });

  it('prunes the activity log and the delivery log by id, from the oldest row up to the first one kept', () => {
    const db = fresh();
    migrate(db, webhookMigrations);
    const activity = createActivityRepo(db);
    const deliveries = createWebhooksRepo(db);
    const day = (n: number) => new Date(Date.UTC(2026, 10, n)).toISOString();
    activity.insertAll(
      [1, 2, 3, 4].map((n) => ({
        id: n,
        at: day(n),
        type: 't',
        level: 'info' as const,
        message: `${n}`,
        data: null,
      })),
    );
    const ids = [1, 2, 3, 4].map((n) => {
      const id = deliveries.recordDelivery(
        { event: 'social-created', itemCount: 1, signedBy: null, payload: '[]' },
        day(n),
      );
      deliveries.logItem(
        {
          key: `${id}:0`,
          event: 'social-created',
          entity: 'SocialPost',
          entityId: `p${n}`,
          itemHash: 'h',
          deliveryId: id,
          mark: 1,
          sameAs: null,
          jobId: null,
        },
        day(n),
      );
      return id;
    });

    expect(activity.pruneBefore(day(3))).toBe(2);
    expect(activity.list({ limit: 10 }).map((event) => event.id)).toEqual([4, 3]);
    expect(deliveries.pruneBefore(day(3))).toBe(2);
    expect(deliveries.getEvent(`${ids[1]}:0`)).toBeUndefined(); // its items go with it
    expect(deliveries.getEvent(`${ids[2]}:0`)?.entity_id).toBe('p3');
    expect(activity.pruneBefore(day(3))).toBe(0);
    expect(activity.pruneBefore(day(9))).toBe(2); // all older: the log is emptied
    expect(deliveries.pruneBefore(day(9))).toBe(2);
    // No index of times for every insert to pay for: the rows are found by id.
    expect(
      db
        .prepare('SELECT name FROM sqlite_master WHERE name IN (?, ?)')
        .all('activity_by_at', 'webhook_deliveries_by_received'),
    ).toEqual([]);
  });

  it('uses an index for the queries the API and the queue run', () => {
    const db = fresh();
    const plan = (sql: string) => queryPlan(db, sql);
    expect(
      plan("SELECT * FROM jobs WHERE status = 'pending' AND run_at <= '2030' ORDER BY run_at"),
    ).toContain('jobs_due');
    expect(plan("SELECT * FROM processed_events WHERE key = 'k'")).toMatch(/INDEX|PRIMARY KEY/);
    expect(
      plan("SELECT 1 FROM jobs WHERE lane = 'x' AND id < 5 AND status IN ('pending', 'running')"),
    ).toContain('jobs_by_lane');
    // The queue's start-up recovery and the operator's counts read the partial indexes too.
    expect(
      plan(
        "UPDATE jobs SET status = 'pending' WHERE status IN ('pending', 'running') AND status = 'running'",
      ),
    ).toContain('jobs_by_lane');
    expect(plan("SELECT COUNT(*) FROM jobs WHERE status = 'failed'")).toContain('jobs_failed');
  });
});
