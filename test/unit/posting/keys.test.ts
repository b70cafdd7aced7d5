import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/kernel/db.js';
import { migrations as postingMigrations } from '../../../main/areas/posting/migrations/index.js';
import { contentHash, socialPostKey } from '../../../main/areas/posting/keys.js';
import { createPostingRepo, type PostingRepo } from '../../../main/areas/posting/repo.js';

/**
 * DESIGN §6.2: the provider's idempotencyKey of a SocialPost is its id + its ledger generation
 * (each reschedule is a new generation) + a hash of content and time. The generation is the
 * number of ledger rows the SocialPost has had before (repo.generations + 1, as
 * social-posts.ts builds it): a post cancelled and scheduled again with the very same content
 * and time is a new generation with a new key, never the cancelled post the provider remembers.
 */

const now = new Date('2026-05-01T09:00:00.000Z');
const ctx = { token: 'proc-a', now, quotaLimit: 100 };
const outgoing = {
  post: 'Episode 12 is out',
  platforms: ['microblog' as const],
  mediaUrls: [] as string[],
  scheduleDate: '2026-05-02T10:00:00.000Z',
};

describe('idempotencyKey of a SocialPost carries its ledger generation', () => {
  let db: Db;
  let repo: PostingRepo;
  beforeEach(() => {
    db = openDatabase(':memory:', { migrations: postingMigrations });
    repo = createPostingRepo(db);
  });
  afterEach(() => db.close());

  /** One generation: the key as social-posts.ts builds it, claimed, posted, then cancelled (rescheduled). */
  function generation(socialPostId: string, postsvcId: string) {
    const hash = contentHash(outgoing);
    const key = socialPostKey(socialPostId, hash, repo.generations(socialPostId) + 1);
    const claim = repo.claim(
      { socialPostId, source: 'crm', idempotencyKey: key, contentHash: hash, ...outgoing },
      ctx,
    );
    if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
    repo.markPosted(claim.row.id, { postsvcId, status: 'scheduled' }, now);
    repo.markCancelled(claim.row.id, now);
    return claim.row;
  }

  it('two generations of the same SocialPost with the same content and time get different keys', () => {
    const first = generation('sp1', 'P1');
    const second = generation('sp1', 'P2');
    const third = generation('sp1', 'P3');

    expect(first.content_hash).toBe(second.content_hash);
    expect(new Set([first.idempotency_key, second.idempotency_key, third.idempotency_key]).size).toBe(3);
    expect(first.idempotency_key).toBe(`sp1:${first.content_hash}`);
    expect(second.idempotency_key).toBe(`sp1:${first.content_hash}:g2`);
    expect(third.idempotency_key).toBe(`sp1:${first.content_hash}:g3`);
    // Each generation is its own ledger row; only the newest is the SocialPost's active one.
    expect(repo.generations('sp1')).toBe(3);
    expect(repo.active('sp1')?.id).toBe(third.id);
  });

  it('the same generation of two SocialPosts, and two generations, never share a key', () => {
    const hash = contentHash(outgoing);
    const keys = ['sp1', 'sp2'].flatMap((id) => [1, 2, 3].map((g) => socialPostKey(id, hash, g)));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
