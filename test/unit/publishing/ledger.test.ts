import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/kernel/db.js';
import { createPublishingRepo } from '../../../main/areas/publishing/repo.js';
import { migrations } from '../../../main/areas/publishing/migrations/index.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

const now = '2026-06-01T12:00:00.000Z';
const subject = { recordId: 'pp1', platform: 'Videosite', contentProductionId: 'cp1' };
const open: Db[] = [];
const dirs: TempDir[] = [];
const repoOn = (file = ':memory:') => {
  const db = openDatabase(file, { migrations });
  open.push(db);
  return createPublishingRepo(db);
};
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const dir of dirs.splice(0)) dir.remove();
});

describe('publish ledger (migration 004)', () => {
  it('lets one claim through until its outcome is known', () => {
    const repo = repoOn();
    expect(repo.claim(subject, now)).toBe(1);
    expect(repo.claim(subject, now)).toBeNull();
    expect(repo.get('pp1')).toMatchObject({ status: 'publishing', generation: 1, claimed_at: now });
    expect(repo.markPublished('pp1', 1, { platformUrl: 'https://v/1' }, now)).toBe(true);
    // Published is final: the same Queued event again, or a re-queue, never claims it.
    expect(repo.claim(subject, now)).toBeNull();
    expect(repo.markWrittenBack('pp1', now)).toBe(true);
    expect(repo.claim(subject, now)).toBeNull();
    expect(JSON.parse(repo.get('pp1')!.result!)).toEqual({ platformUrl: 'https://v/1' });
  });

  it('claims a failed record again only after the failure is on the CRM record', () => {
    const repo = repoOn();
    const generation = repo.claim(subject, now)!;
    expect(repo.markFailed('pp1', generation, 'RTMP_INVALID: bad', now)).toBe(true);
    expect(repo.claim(subject, now)).toBeNull();
    repo.markWrittenBack('pp1', now);
    expect(repo.claim(subject, now)).toBe(2);
    expect(repo.get('pp1')).toMatchObject({ status: 'publishing', note: null, written_back: 0 });
  });

  it('ignores the writes of a stale generation', () => {
    const repo = repoOn();
    repo.claim(subject, now);
    repo.markFailed('pp1', 1, 'x', now);
    repo.markWrittenBack('pp1', now);
    repo.claim(subject, now);
    expect(repo.markPublished('pp1', 1, {}, now)).toBe(false);
    expect(repo.markFailed('pp1', 1, 'late', now)).toBe(false);
    expect(repo.get('pp1')).toMatchObject({ status: 'publishing', generation: 2 });
  });

  it('keeps waiting records claimable, and never turns a claim back into waiting', () => {
    const repo = repoOn();
    const dependent = { recordId: 'sh1', platform: 'Streamhost', contentProductionId: 'cp1' };
    expect(repo.markWaiting(dependent, 'Videosite', 'waiting for Videosite', now)).toBe(true);
    expect(repo.get('sh1')).toMatchObject({ status: 'waiting', waiting_on: 'Videosite' });
    expect(repo.claim(dependent, now)).toBe(1);
    expect(repo.markWaiting(dependent, 'Videosite', 'waiting for Videosite', now)).toBe(false);
    expect(repo.get('sh1')).toMatchObject({ status: 'publishing', waiting_on: null });
  });

  it('releases a claim for a retry after a transient failure', () => {
    const repo = repoOn();
    repo.claim(subject, now);
    expect(repo.release('pp1', 1, 'connection refused', now)).toBe(true);
    expect(repo.get('pp1')).toMatchObject({ status: 'retrying', note: 'connection refused' });
    expect(repo.claim(subject, now)).toBe(2);
  });

  it('lets the operator take over a claim whose run vanished, not a fresh one', () => {
    const repo = repoOn();
    repo.claim(subject, '2026-06-01T11:00:00.000Z');
    expect(repo.abandonStale('pp1', '2026-06-01T10:00:00.000Z', 'unknown', now)).toBe(false);
    expect(repo.abandonStale('pp1', '2026-06-01T11:50:00.000Z', 'unknown', now)).toBe(true);
    expect(repo.get('pp1')).toMatchObject({ status: 'failed', note: 'unknown', written_back: 1 });
    expect(repo.claim(subject, now)).toBe(2);
  });

  it('marks dependents released on a published primary only', () => {
    const repo = repoOn();
    repo.claim(subject, now);
    expect(repo.markDependentsReleased('pp1', now)).toBe(false);
    repo.markPublished('pp1', 1, {}, now);
    expect(repo.markDependentsReleased('pp1', now)).toBe(true);
    expect(repo.get('pp1')?.dependents_released).toBe(1);
  });

  it('lets exactly one of two processes claim the same record', () => {
    const dir = tempDir('ledger');
    dirs.push(dir);
    const file = path.join(dir.path, 'bridge.sqlite');
    const first = repoOn(file);
    const second = repoOn(file);
    const claims = [first.claim(subject, now), second.claim(subject, now), first.claim(subject, now)];
    expect(claims.filter((c) => c !== null)).toEqual([1]);
  });

  it('reads rows by id through the primary key', () => {
    const db = openDatabase(':memory:', { migrations });
    open.push(db);
    const repo = createPublishingRepo(db);
    repo.claim(subject, now);
    expect(repo.getMany(['pp1', 'nope']).map((r) => r.record_id)).toEqual(['pp1']);
    const plan = db
      .prepare<[string], { detail: string }>(
        'EXPLAIN QUERY PLAN SELECT * FROM publish_ledger WHERE record_id IN (SELECT value FROM json_each(?))',
      )
      .all('["pp1"]')
      .map((row) => row.detail)
      .join(' | ');
    expect(plan).toMatch(/USING INDEX sqlite_autoindex_publish_ledger_1/);
  });
});
