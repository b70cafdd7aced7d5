import { describe, expect, it } from 'vitest';
import { PeerError } from '../../../main/peers/peer-error.js';
import type { PostsvcError } from '../../../main/peers/postsvc.js';
import { toPostsvcError } from '../../../main/peers/postsvc.js';
import type { ProviderHistoryItem } from '../../../main/peers/postsvc-wire.js';
import type { AppError } from '../../../main/kernel/app-error.js';
import { httpHeadersOf, httpStatusOf } from '../../../main/http/send-error.js';
import { ruleError } from '../../../main/areas/posting/errors.js';
import { peerAppError } from '../../../main/peers/peer-app-error.js';
import { ledgerStatus } from '../../../main/areas/posting/posts-view.js';
import { syncChange } from '../../../main/areas/posting/provider-posts.js';
import { mayHaveCreated } from '../../../main/areas/posting/creates.js';
import type { LedgerRow } from '../../../main/areas/posting/repo.js';

const item = (status: string, over: Partial<ProviderHistoryItem> = {}): ProviderHistoryItem => ({
  id: 'P1',
  post: 'x',
  platforms: ['microblog'],
  postIds: [],
  errors: [],
  status,
  ...over,
});
const record = (status: string, postsvcId: string | null = 'P1') => ({ id: 'sp1', status, postsvcId });

describe('syncChange: what a SocialPost should say, from its provider post', () => {
  it('published → Published; already Published: nothing', () => {
    expect(syncChange(item('success'), record('Scheduled'), true)).toEqual({ status: 'Published' });
    expect(syncChange(item('success'), record('Published'), true)).toBeNull();
  });
  it('error → Failed with the platform messages', () => {
    const failed = item('error', {
      errors: [{ platform: 'microblog', code: 107, message: 'Token expired.' }],
    });
    expect(syncChange(failed, record('Scheduled'), true)).toEqual({
      status: 'Failed',
      error: 'microblog: Token expired.',
    });
  });
  it('scheduled moves only a Failed record back; Draft and Published are left alone', () => {
    expect(syncChange(item('scheduled'), record('Failed'), true)).toEqual({
      status: 'Scheduled',
      error: null,
    });
    expect(syncChange(item('scheduled'), record('Draft'), true)).toBeNull();
    expect(syncChange(item('scheduled'), record('Published'), true)).toBeNull();
  });
  it('a record matched through the ledger also gets its postsvcId', () => {
    expect(syncChange(item('success'), record('Scheduled', null), false)).toEqual({
      status: 'Published',
      postsvcId: 'P1',
    });
  });
  it('a deleted provider post changes nothing', () => {
    expect(syncChange(item('deleted'), record('Scheduled'), true)).toBeNull();
  });
});

describe('unknown outcomes', () => {
  const fail = (error: PeerError) => toPostsvcError(error) as PostsvcError;
  it('a timeout, a dropped connection or a 5xx may have created the post; a refused connection or a 4xx did not', () => {
    expect(
      mayHaveCreated(fail(new PeerError('postsvc', 'timeout', 'no answer', { outcomeUnknown: true }))),
    ).toBe(true);
    expect(
      mayHaveCreated(fail(new PeerError('postsvc', 'network', 'postsvc POST /post: connection reset'))),
    ).toBe(true);
    expect(mayHaveCreated(fail(new PeerError('postsvc', 'http', 'HTTP 502', { status: 502 })))).toBe(true);
    expect(
      mayHaveCreated(fail(new PeerError('postsvc', 'network', 'postsvc POST /post: connection refused'))),
    ).toBe(false);
    expect(mayHaveCreated(fail(new PeerError('postsvc', 'http', 'HTTP 400', { status: 400 })))).toBe(false);
    expect(mayHaveCreated(fail(new PeerError('postsvc', 'http', 'HTTP 429', { status: 429 })))).toBe(false);
  });
});

describe('answers', () => {
  it('RATE_LIMIT is 429 with Retry-After; other provider codes 500 with the provider message in details', () => {
    const limited = peerAppError(
      toPostsvcError(
        new PeerError('postsvc', 'http', 'HTTP 429', {
          status: 429,
          retryAfterS: 30,
          body: { status: 'error', code: 429, message: 'Slow down' },
        }),
      ),
    ) as AppError;
    expect(asSent(limited)).toMatchObject({
      status: 429,
      code: 'RATE_LIMIT',
      details: 'Slow down',
      headers: { 'Retry-After': '30' },
    });
    const auth = peerAppError(
      toPostsvcError(
        new PeerError('postsvc', 'http', 'HTTP 401', {
          status: 401,
          body: { status: 'error', code: 102, message: 'Bad key' },
        }),
      ),
    ) as AppError;
    expect(asSent(auth)).toMatchObject({ status: 500, code: 'AUTH_ERROR', details: 'Bad key' });
  });
  it('rule failures: INVALID_DATE for dates, else VALIDATION_ERROR with every issue', () => {
    expect(
      asSent(ruleError([{ field: 'scheduleDate', rule: 'future', message: 'past', code: 'INVALID_DATE' }])),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_DATE',
    });
    const both = ruleError([
      { field: 'post', rule: 'max-length', message: 'a', code: 'VALIDATION_ERROR' },
      { field: 'mediaUrls.0', rule: 'http-url', message: 'b', code: 'VALIDATION_ERROR' },
    ]);
    expect({ ...asSent(both), message: both.message }).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'a; b',
    });
  });
  it('the dashboard status of a ledger row', () => {
    const row = (state: LedgerRow['state'], over: Partial<LedgerRow> = {}) =>
      ({ state, error: null, provider_status: null, platforms: ['microblog'], ...over }) as LedgerRow;
    expect(ledgerStatus(row('claimed'))).toBe('sending');
    expect(ledgerStatus(row('unknown'))).toBe('checking');
    expect(ledgerStatus(row('posted', { provider_status: 'scheduled' }))).toBe('scheduled');
    expect(ledgerStatus(row('posted', { provider_status: 'published' }))).toBe('published');
    expect(ledgerStatus(row('posted', { error: 'partial' }))).toBe('failed');
    // Per platform (issue #14.11): one refused, the other scheduled.
    const partly = row('posted', {
      platforms: ['microblog', 'socialnet'],
      provider_status: 'error',
      error: 'refused',
      platform_states: {
        microblog: { status: 'scheduled', error: null, postId: null },
        socialnet: { status: 'failed', error: 'Token expired.', postId: null },
      },
    });
    expect(ledgerStatus(partly)).toBe('partial');
  });
});

/** The error with the status and headers the bridge answers it with. */
function asSent(error: AppError) {
  return {
    code: error.code,
    details: error.details,
    status: httpStatusOf(error),
    headers: httpHeadersOf(error),
  };
}
