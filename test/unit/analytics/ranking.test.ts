import { describe, expect, it } from 'vitest';
import { engagementRate, toTopPostRow } from '../../../main/areas/analytics/ranking.js';

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
