import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/kernel/db.js';
import { migrations as postingMigrations } from '../../../main/areas/posting/migrations/index.js';
import { createPostingRepo, type LedgerClaim, type PostingRepo } from '../../../main/areas/posting/repo.js';

const now = new Date('2026-05-01T09:00:00.000Z');
const ctx = (over: Partial<{ token: string; now: Date; quotaLimit: number }> = {}) => ({
  token: 'proc-a',
  now,
  quotaLimit: 10,
  ...over,
});
const claimFor = (
  socialPostId: string | null,
  key: string,
  over: Partial<LedgerClaim> = {},
): LedgerClaim => ({
  socialPostId,
  source: socialPostId ? 'crm' : 'api',
  idempotencyKey: key,
  contentHash: 'h1',
  post: 'Hello',
  platforms: ['microblog'],
  mediaUrls: [],
  scheduleDate: '2026-05-02T10:00:00.000Z',
  ...over,
});

describe('social_post_ledger', () => {
  let db: Db;
  let repo: PostingRepo;
  beforeEach(() => {
    db = openDatabase(':memory:', { migrations: postingMigrations });
    repo = createPostingRepo(db);
  });
  afterEach(() => db.close());

  it('claims a SocialPost once: a second claim finds the first row', () => {
    const first = repo.claim(claimFor('sp1', 'sp1:h1'), ctx());
    expect(first.kind).toBe('claimed');
    const second = repo.claim(claimFor('sp1', 'sp1:h2'), ctx({ token: 'proc-b' }));
    expect(second).toMatchObject({
      kind: 'exists',
      row: { idempotency_key: 'sp1:h1', claim_token: 'proc-a' },
    });
  });

  it('a posted row answers with its postsvcId; a failed one makes way for a new claim', () => {
    const first = repo.claim(claimFor('sp1', 'sp1:h1'), ctx());
    if (first.kind !== 'claimed') throw new Error('not claimed');
    expect(repo.markPosted(first.row.id, { postsvcId: 'P1', status: 'scheduled' }, now)).toBe(true);
    expect(repo.claim(claimFor('sp1', 'sp1:h1'), ctx())).toMatchObject({
      kind: 'exists',
      row: { postsvc_id: 'P1' },
    });

    const other = repo.claim(claimFor('sp2', 'sp2:h1'), ctx());
    if (other.kind !== 'claimed') throw new Error('not claimed');
    repo.markFailed(other.row.id, 'refused', 'PLATFORM_ERROR', now);
    const again = repo.claim(claimFor('sp2', 'sp2:h2:g2'), ctx());
    expect(again.kind).toBe('claimed');
    expect(repo.get(other.row.id)?.active).toBe(0);
  });

  it('reclaims a failed row only once (conditional update)', () => {
    const first = repo.claim(claimFor('sp1', 'sp1:h1'), ctx());
    if (first.kind !== 'claimed') throw new Error('not claimed');
    repo.markFailed(first.row.id, 'HTTP 503', 'PLATFORM_ERROR', now);
    expect(repo.reclaimFailed(first.row.id, ctx()).kind).toBe('claimed');
    expect(repo.reclaimFailed(first.row.id, ctx()).kind).toBe('exists');
    expect(repo.get(first.row.id)?.attempts).toBe(2);
  });

  it('takes over an unknown outcome, or a claim of a process that is gone, but not its own live claim', () => {
    const first = repo.claim(claimFor('sp1', 'sp1:h1'), ctx());
    if (first.kind !== 'claimed') throw new Error('not claimed');
    expect(repo.takeOverUnknown(first.row.id, 'proc-a', now)).toBe(false);
    expect(repo.takeOverUnknown(first.row.id, 'proc-b', now)).toBe(true);
    repo.markUnknown(first.row.id, 'timeout', now);
    expect(repo.takeOverUnknown(first.row.id, 'proc-b', now)).toBe(true);
  });

  it('counts the quota by the UTC day of creation; refused posts do not count', () => {
    for (let i = 0; i < 3; i++) {
      const claim = repo.claim(claimFor(`sp${i}`, `sp${i}:h`), ctx({ quotaLimit: 3 }));
      if (claim.kind !== 'claimed') throw new Error('not claimed');
      if (i === 0) repo.markFailed(claim.row.id, 'refused', 'PLATFORM_ERROR', now);
      if (i === 1) repo.markPosted(claim.row.id, { postsvcId: 'P', status: 'scheduled' }, now);
    }
    expect(repo.usedOn('2026-05-01')).toBe(2);
    expect(repo.claim(claimFor('sp9', 'sp9:h'), ctx({ quotaLimit: 3 })).kind).toBe('claimed');
    expect(repo.claim(claimFor('sp10', 'sp10:h'), ctx({ quotaLimit: 3 }))).toEqual({
      kind: 'quota',
      used: 3,
      limit: 3,
    });
    expect(
      repo.claim(claimFor('sp10', 'sp10:h'), ctx({ quotaLimit: 3, now: new Date('2026-05-02T00:00:01Z') }))
        .kind,
    ).toBe('claimed');
  });

  it('API posts are claimed by idempotency key', () => {
    expect(repo.claim(claimFor(null, 'api:k1'), ctx()).kind).toBe('claimed');
    expect(repo.claim(claimFor(null, 'api:k1'), ctx()).kind).toBe('exists');
    expect(repo.claim(claimFor(null, 'api:k2'), ctx()).kind).toBe('claimed');
  });

  it('every query the ledger runs uses an index', () => {
    const plans = [
      ['SELECT * FROM social_post_ledger WHERE social_post_id = ? AND active = 1', ['x']],
      ['SELECT * FROM social_post_ledger WHERE idempotency_key = ?', ['x']],
      ['SELECT * FROM social_post_ledger WHERE postsvc_id = ? ORDER BY id DESC LIMIT 1', ['x']],
      [
        "SELECT COUNT(*) FROM social_post_ledger WHERE quota_day = ? AND state IN ('claimed', 'posted')",
        ['x'],
      ],
      ['SELECT * FROM social_post_ledger WHERE publish_at >= ? AND publish_at <= ?', ['a', 'b']],
    ] as const;
    for (const [sql, params] of plans) {
      const detail = db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => (row as { detail: string }).detail)
        .join(' | ');
      expect(detail, sql).toMatch(/USING (COVERING )?INDEX|PRIMARY KEY/);
    }
  });
});
