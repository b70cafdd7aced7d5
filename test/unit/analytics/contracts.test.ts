import { describe, expect, it } from 'vitest';
import { contentIngestBody, getTopPosts, socialPlatform } from '../../../shared/api/analytics.js';

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
