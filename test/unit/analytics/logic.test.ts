import { describe, expect, it } from 'vitest';
import { getTopPosts, socialPlatform, contentIngestBody } from '../../../shared/api/analytics.js';
import { addDays, parseDateRange, utcDay } from '../../../main/areas/analytics/dates.js';
import { judgeRun } from '../../../main/areas/analytics/outcome.js';
import { engagementRate, toTopPostRow } from '../../../main/areas/analytics/ranking.js';

describe('analytics dates (DESIGN §6.5)', () => {
  it('accepts real calendar dates, inclusive range, either end optional', () => {
    expect(parseDateRange({})).toEqual({ ok: true });
    expect(parseDateRange({ startDate: '2024-02-29' })).toEqual({ ok: true, start: '2024-02-29' });
    expect(parseDateRange({ startDate: '2026-03-01', endDate: '2026-03-01' })).toEqual({
      ok: true,
      start: '2026-03-01',
      end: '2026-03-01',
    });
  });

  it.each([
    [{ startDate: '2026-02-30' }, 'startDate: "2026-02-30" is not a real calendar date'],
    [{ endDate: '2025-02-29' }, 'endDate: "2025-02-29" is not a real calendar date'],
    [{ startDate: '2026-13-01' }, 'startDate: "2026-13-01" is not a real calendar date'],
    [{ startDate: '26-01-01' }, 'startDate: "26-01-01" must be YYYY-MM-DD'],
    [{ endDate: '2026-1-1' }, 'endDate: "2026-1-1" must be YYYY-MM-DD'],
    [{ startDate: '' }, 'startDate: "" must be YYYY-MM-DD'],
    [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'startDate 2026-03-02 is after endDate 2026-03-01'],
  ])('refuses %j', (query, message) => {
    expect(parseDateRange(query)).toEqual({ ok: false, message });
  });

  it('counts UTC days', () => {
    expect(utcDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(utcDay(new Date('2026-03-02T00:30:00+01:00'))).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-10', -29)).toBe('2026-02-09');
  });
});

describe('engagement rate (DESIGN §6.5)', () => {
  it('is (likes+comments+shares)/impressions rounded to 4 decimals, 0 without impressions', () => {
    expect(engagementRate({ likes: 1, comments: 1, shares: 1, impressions: 7 })).toBe(0.4286);
    expect(engagementRate({ likes: 10, comments: 0, shares: 0, impressions: 0 })).toBe(0);
    expect(engagementRate({ likes: 0, comments: 0, shares: 0, impressions: 100 })).toBe(0);
    expect(engagementRate({ likes: 5, comments: 5, shares: 5, impressions: 10 })).toBe(1.5);
    expect(engagementRate({ likes: 1, comments: 0, shares: 0, impressions: 30_000 })).toBe(0);
    expect(engagementRate({ likes: 2, comments: 0, shares: 0, impressions: 30_000 })).toBe(0.0001);
  });

  it('builds the spec row with total_engagement', () => {
    const row = toTopPostRow({
      post_id: 'p1',
      platform: 'microblog',
      postsvc_id: 's1',
      content: 'hello',
      likes: 3,
      comments: 2,
      shares: 1,
      impressions: 60,
      collected_at: '2026-03-01T10:00:00.000Z',
    });
    expect(row).toMatchObject({ post_id: 'p1', total_engagement: 6, engagement_rate: 0.1 });
  });
});

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

describe('analytics contracts', () => {
  it('defaults top-posts to 10 by engagement and names a bad metric', () => {
    expect(getTopPosts.query!.parse({})).toEqual({ limit: 10, metric: 'engagement' });
    const bad = getTopPosts.query!.safeParse({ metric: 'views' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['metric']);
  });

  it('takes platform keys case-insensitively and refuses unknown ones', () => {
    expect(socialPlatform.parse('Microblog')).toBe('microblog');
    expect(socialPlatform.safeParse('myspace').success).toBe(false);
  });

  it('ingest defaults the optional numbers to 0 and refuses negative views', () => {
    expect(contentIngestBody.parse({ contentId: 'c1', platform: 'Altvideo', views: 5 })).toEqual({
      contentId: 'c1',
      platform: 'altvideo',
      views: 5,
      watchHours: 0,
      likes: 0,
      comments: 0,
      shares: 0,
    });
    expect(contentIngestBody.safeParse({ contentId: 'c1', platform: 'altvideo', views: -1 }).success).toBe(
      false,
    );
    expect(contentIngestBody.safeParse({ contentId: 'c1', platform: 'alt video', views: 1 }).success).toBe(
      false,
    );
  });
});
