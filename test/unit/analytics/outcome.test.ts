import { describe, expect, it } from 'vitest';
import { judgeRun } from '../../../main/areas/analytics/outcome.js';

describe('run verdict', () => {
  const ok = (platform: string) => ({ platform, status: 'ok' as const, error: null, followers: 10 });
  const bad = (platform: string) => ({ platform, status: 'failed' as const, error: 'down', followers: null });

  it('succeeds when every platform and post was read', () => {
    expect(
      judgeRun({
        outcomes: [ok('microblog'), ok('socialnet')],
        postsError: null,
        postsCollected: 3,
        postsFailed: 0,
      }),
    ).toEqual({ status: 'succeeded', error_code: null, error: null });
  });

  it('is partial when one platform failed: the others still count', () => {
    const verdict = judgeRun({
      outcomes: [ok('microblog'), bad('photogram')],
      postsError: null,
      postsCollected: 0,
      postsFailed: 0,
    });
    expect(verdict).toEqual({ status: 'partial', error_code: null, error: 'photogram: down' });
  });

  it('is partial when posts failed but social metrics came in', () => {
    expect(
      judgeRun({
        outcomes: [ok('microblog')],
        postsError: 'history could not be read: x',
        postsCollected: 0,
        postsFailed: 0,
      }).status,
    ).toBe('partial');
    expect(
      judgeRun({ outcomes: [bad('microblog')], postsError: null, postsCollected: 2, postsFailed: 1 }).status,
    ).toBe('partial');
  });

  it('fails with COLLECTION_FAILED when nothing at all was collected', () => {
    const verdict = judgeRun({
      outcomes: [bad('microblog'), bad('socialnet')],
      postsError: 'history could not be read: HTTP 500',
      postsCollected: 0,
      postsFailed: 0,
    });
    expect(verdict.status).toBe('failed');
    expect(verdict.error_code).toBe('COLLECTION_FAILED');
    expect(verdict.error).toBe('microblog, socialnet: down; posts: history could not be read: HTTP 500');
  });
});
