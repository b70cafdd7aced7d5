import { describe, expect, it } from 'vitest';
import { classifyPostsvcFailure } from '../../../main/peers/postsvc.js';
import type { ProviderHistoryItem } from '../../../main/peers/postsvc-wire.js';
import { findCreatedPost, providerStatusOf } from '../../../main/areas/posting/history-match.js';
import { contentHash, quotaDay, socialPostKey } from '../../../main/areas/posting/keys.js';

describe('classifyPostsvcFailure (DESIGN §5.2 → spec §7 codes)', () => {
  const body = (code: number, message: string, errors: object[] = []) => ({
    status: 'error',
    code,
    message,
    errors,
  });

  it('401 and 403 are AUTH_ERROR', () => {
    expect(classifyPostsvcFailure(401, body(102, 'API Key not valid.')).code).toBe('AUTH_ERROR');
    expect(classifyPostsvcFailure(403, body(169, 'Profile suspended')).code).toBe('AUTH_ERROR');
  });
  it('429 is RATE_LIMIT', () => {
    expect(classifyPostsvcFailure(429, body(429, 'Too many requests')).code).toBe('RATE_LIMIT');
  });
  it('media errors are INVALID_MEDIA, by code or message', () => {
    expect(
      classifyPostsvcFailure(400, body(138, 'Media URL is not reachable: https://x.invalid/a.png')).code,
    ).toBe('INVALID_MEDIA');
    const perPlatform = body(101, 'Post failed', [
      { platform: 'shortvideo', code: 136, message: 'shortvideo requires a video in mediaUrls.' },
    ]);
    expect(classifyPostsvcFailure(400, perPlatform)).toEqual({
      code: 'INVALID_MEDIA',
      providerMessage: 'Post failed — shortvideo: shortvideo requires a video in mediaUrls.',
      platformErrors: perPlatform.errors,
    });
  });
  it('anything else is PLATFORM_ERROR with the provider message', () => {
    const result = classifyPostsvcFailure(400, body(156, 'pinboard is not linked to this profile.'));
    expect(result.code).toBe('PLATFORM_ERROR');
    expect(result.providerMessage).toBe('pinboard is not linked to this profile.');
    expect(classifyPostsvcFailure(502, undefined)).toMatchObject({
      code: 'PLATFORM_ERROR',
      providerMessage: 'HTTP 502',
    });
  });
});

describe('idempotency keys', () => {
  const post = {
    post: 'Hello',
    platforms: ['microblog'],
    mediaUrls: [],
    scheduleDate: '2026-05-01T10:00:00Z',
  };
  it('the same content and time hash the same, whatever the date notation', () => {
    expect(contentHash(post)).toBe(contentHash({ ...post, scheduleDate: '2026-05-01T12:00:00+02:00' }));
    expect(contentHash(post)).not.toBe(contentHash({ ...post, post: 'Hello!' }));
    expect(contentHash(post)).not.toBe(contentHash({ ...post, scheduleDate: '2026-05-01T10:01:00Z' }));
    expect(contentHash(post)).not.toBe(contentHash({ ...post, mediaUrls: ['https://a.example/x.png'] }));
  });
  it('a later generation of the same SocialPost gets a distinct key', () => {
    expect(socialPostKey('abc', 'h', 1)).toBe('abc:h');
    expect(socialPostKey('abc', 'h', 2)).toBe('abc:h:g2');
  });
  it('the quota day is the UTC day and resets at UTC midnight', () => {
    expect(quotaDay(new Date('2026-05-01T23:59:59.000+00:00'))).toEqual({
      day: '2026-05-01',
      resetsAt: new Date('2026-05-02T00:00:00.000Z'),
    });
  });
});

describe('findCreatedPost (reconciling an unknown outcome)', () => {
  const row = {
    idempotency_key: 'sp1:abc',
    post: 'New episode',
    platforms: ['microblog' as const],
    schedule_date: '2026-05-01T10:00:00.000Z',
    claimed_at: '2026-04-30T09:00:00.000Z',
  };
  const item = (over: Partial<ProviderHistoryItem>): ProviderHistoryItem => ({
    id: 'p1',
    post: 'New episode',
    platforms: ['microblog'],
    postIds: [],
    errors: [],
    status: 'scheduled',
    created: '2026-04-30T09:00:01.000Z',
    scheduleDate: '2026-05-01T10:00:00.000Z',
    ...over,
  });

  it('finds the post by idempotency key first', () => {
    const history = [
      item({ id: 'other', idempotencyKey: null }),
      item({ id: 'mine', idempotencyKey: 'sp1:abc', post: 'x' }),
    ];
    expect(findCreatedPost(row, history, () => false)?.id).toBe('mine');
  });
  it('else by text, platforms and time, created after the claim, not owned by another row', () => {
    const history = [
      item({ id: 'newer' }),
      item({ id: 'owned' }),
      item({ id: 'too-old', created: '2026-04-29T09:00:00.000Z' }),
      item({ id: 'other-time', scheduleDate: '2026-05-01T11:00:00.000Z' }),
    ];
    expect(findCreatedPost(row, history, (id) => id === 'owned')?.id).toBe('newer');
    expect(findCreatedPost(row, history, () => true)).toBeNull();
  });
  it('a post with another idempotency key is never taken for ours', () => {
    expect(findCreatedPost(row, [item({ idempotencyKey: 'sp2:zzz' })], () => false)).toBeNull();
  });
  it('maps provider status words', () => {
    expect(providerStatusOf('success')).toBe('published');
    expect(providerStatusOf('scheduled')).toBe('scheduled');
  });
});
