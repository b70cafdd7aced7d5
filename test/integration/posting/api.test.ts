import { afterEach, describe, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { eventually } from '../../support/bridge.js';
import { providerThrottle } from '../../support/faults.js';
import { withPostingPeers } from '../../support/posting-bridge.js';

/** POST /postsvc/schedule, /delete, GET /history, /analytics, POST /sync and the dashboard routes, over HTTP. */

const SECRET = 'posting-api-secret';
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

const { crm, postsvc, startBridge } = await withPostingPeers({
  secret: SECRET,
  postsvc: { rateLimitPerMinute: 10_000 },
});

const start = (plan: 'free' | 'business', postsvcKey?: string) =>
  startBridge({ plan, postsvcKey, tuning: { peers: { postsvc: { timeoutMs: 1_000 } } } });
const bridge = await start('business');

const schedule = (body: Record<string, unknown>) => bridge.call('POST', '/postsvc/schedule', { body });

afterEach(() => {
  postsvc.faults.clearFaults();
});

describe('POST /postsvc/schedule: input rules', () => {
  it.each([
    [{ platforms: ['microblog'] }, 'body.post'],
    [{ post: 'Hi' }, 'body.platforms'],
    [{ post: 'Hi', platforms: ['myspace'] }, 'body.platforms.0'],
    [{ post: 'Hi', platforms: ['microblog', 'microblog'] }, 'platforms: microblog listed more than once'],
    [
      { post: 'x'.repeat(281), platforms: ['socialnet', 'microblog'] },
      'post: 281 characters, microblog allows 280',
    ],
    [
      { post: 'Hi', platforms: ['socialnet'], mediaUrls: ['file:///etc/passwd'] },
      'mediaUrls.0: "file:///etc/passwd" is not an http(s) URL',
    ],
    [
      { post: 'Hi', platforms: ['socialnet'], hashtags: ['two words'] },
      'hashtags: "two words" is not a hashtag',
    ],
  ])('%j → 400 VALIDATION_ERROR naming %s', async (body, rule) => {
    const before = postsvc.callCount('/post', 'POST');
    const response = await schedule(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toContain(rule);
    expect(postsvc.callCount('/post', 'POST')).toBe(before);
  });

  it('a scheduleDate in the past, or not a date, is 400 INVALID_DATE', async () => {
    const past = await schedule({ post: 'Hi', platforms: ['socialnet'], scheduleDate: inHours(-1) });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({
      code: 'INVALID_DATE',
      error: expect.stringContaining('is in the past'),
    });
    const bad = await schedule({ post: 'Hi', platforms: ['socialnet'], scheduleDate: '2026-13-01 10:00' });
    expect(bad.body.code).toBe('INVALID_DATE');
  });

  it('a scheduleDate before 2000 or more than 5 years ahead is 400 INVALID_DATE naming the bound; nothing is posted', async () => {
    const before = postsvc.callCount('/post', 'POST');
    const ancient = await schedule({
      post: 'Hi',
      platforms: ['socialnet'],
      scheduleDate: '0026-05-01T10:00:00Z',
    });
    expect(ancient.status).toBe(400);
    expect(ancient.body).toMatchObject({
      success: false,
      code: 'INVALID_DATE',
      error: 'scheduleDate: 0026-05-01T10:00:00Z is before 2000-01-01',
    });
    const sixYears = inHours(6 * 366 * 24);
    const far = await schedule({ post: 'Hi', platforms: ['socialnet'], scheduleDate: sixYears });
    expect(far.status).toBe(400);
    expect(far.body).toMatchObject({
      success: false,
      code: 'INVALID_DATE',
      error: expect.stringMatching(
        new RegExp(`^scheduleDate: ${sixYears} is more than 5 years ahead \\(latest `),
      ),
    });
    expect(postsvc.callCount('/post', 'POST')).toBe(before);
    // The composer's preview shows the same rule.
    const preview = await bridge.call('POST', '/api/posts/preview', {
      body: { post: 'Hi', platforms: ['socialnet'], scheduleDate: '0026-05-01T10:00:00Z' },
    });
    expect(preview.body.errors).toEqual([
      {
        field: 'scheduleDate',
        rule: 'earliest-date',
        message: 'scheduleDate: 0026-05-01T10:00:00Z is before 2000-01-01',
        code: 'INVALID_DATE',
      },
    ]);
  });

  it('counts microblog like the platform: a long URL is 23', async () => {
    const url = `https://studio.com/${'very-long-path/'.repeat(20)}`;
    const response = await schedule({
      post: `${'a'.repeat(250)} ${url}`,
      platforms: ['microblog'],
      scheduleDate: inHours(30),
    });
    expect(response.status).toBe(200);
  });
});

describe('POST /postsvc/schedule: posting', () => {
  it('schedules with hashtags appended once and answers the spec shape', async () => {
    const response = await schedule({
      post: 'New #Podcast episode',
      platforms: ['microblog', 'socialnet'],
      scheduleDate: inHours(48),
      hashtags: ['podcast', 'studio'],
      mediaUrls: ['https://cdn.example/cover.png'],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      id: expect.any(String),
      status: 'scheduled',
      post: 'New #Podcast episode #studio',
      posts: [
        { platform: 'microblog', status: 'scheduled', postId: null },
        { platform: 'socialnet', status: 'scheduled', postId: null },
      ],
      warnings: [],
      reused: false,
    });
    const stored = postsvc.posts().find((p) => p.id === response.body.id)!;
    expect(stored).toMatchObject({
      post: 'New #Podcast episode #studio',
      platforms: ['microblog', 'socialnet'],
    });
    expect(stored.idempotencyKey).toMatch(/^api:/);
  });

  it('publishes now without a scheduleDate', async () => {
    const response = await schedule({ post: 'Live now!', platforms: ['professional'] });
    expect(response.body).toMatchObject({
      status: 'published',
      posts: [{ platform: 'professional', postId: expect.any(String) }],
    });
  });

  it('warns (and accepts) under 10 minutes ahead and within 2 hours of another post on the same platform', async () => {
    const first = await schedule({
      post: 'Spacing one',
      platforms: ['photogram'],
      scheduleDate: inHours(100),
      mediaUrls: ['https://cdn.example/a.png'],
    });
    expect(first.body.warnings).toEqual([]);
    const second = await schedule({
      post: 'Spacing two',
      platforms: ['photogram'],
      scheduleDate: inHours(101),
      mediaUrls: ['https://cdn.example/b.png'],
    });
    expect(second.status).toBe(200);
    expect(second.body.warnings).toEqual([
      expect.stringMatching(/^photogram: another post goes out at .* \(60 min apart\)/),
    ]);
    const soon = await schedule({
      post: 'Soon',
      platforms: ['professional'],
      scheduleDate: new Date(Date.now() + 5 * 60_000).toISOString(),
    });
    expect(soon.status).toBe(200);
    expect(soon.body.warnings[0]).toMatch(/min ahead; at least 10 minutes is recommended/);
  });

  it('the same idempotencyKey answers with the first post; another post under it is 409', async () => {
    const body = {
      post: 'Keyed post',
      platforms: ['socialnet'],
      scheduleDate: inHours(50),
      idempotencyKey: 'composer-1234-abcd',
    };
    const before = postsvc.callCount('/post', 'POST');
    const first = await schedule(body);
    const again = await Promise.all([schedule(body), schedule(body)]);
    expect(again.map((r) => r.body.id)).toEqual([first.body.id, first.body.id]);
    expect(again[0]?.body.reused).toBe(true);
    expect(postsvc.callCount('/post', 'POST') - before).toBe(1);
    const other = await schedule({ ...body, post: 'Different text' });
    expect(other.status).toBe(409);
  });

  it('a provider that hangs on the create is reconciled from its history: the answer carries the one post', async () => {
    postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', hang: true, times: 1 });
    const before = postsvc.callCount('/post', 'POST');
    const response = await schedule({
      post: 'Hang on API',
      platforms: ['socialnet'],
      scheduleDate: inHours(60),
    });
    expect(response.status).toBe(200);
    const created = postsvc.posts().filter((p) => p.post === 'Hang on API');
    expect(created).toHaveLength(1);
    expect(response.body.id).toBe(created[0]!.id);
    expect(postsvc.callCount('/post', 'POST') - before).toBe(1);
  });
});

describe('provider errors map to the spec codes', () => {
  it('429 → RATE_LIMIT with Retry-After', async () => {
    // Twice: a Retry-After of at most 3 s is waited out and the create sent once more (DESIGN §6.2,
    // test/integration/posting/api-429-resend.test.ts); the answer is the 429 of that second try.
    postsvc.faults.injectFault(
      providerThrottle({ method: 'POST', pathPrefix: '/post', retryAfterS: 1, times: 2 }),
    );
    const response = await schedule({
      post: 'Rate limited',
      platforms: ['socialnet'],
      scheduleDate: inHours(70),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.body).toMatchObject({ success: false, code: 'RATE_LIMIT', details: 'Too many requests' });
  });

  it('unreachable media → INVALID_MEDIA; a platform problem → PLATFORM_ERROR with the provider message in details', async () => {
    const media = await schedule({
      post: 'Bad media',
      platforms: ['socialnet'],
      scheduleDate: inHours(71),
      mediaUrls: ['https://cdn.invalid/x.png'],
    });
    expect(media.status).toBe(500);
    expect(media.body).toMatchObject({
      code: 'INVALID_MEDIA',
      details: expect.stringContaining('not reachable'),
    });

    postsvc.failPlatform('professional', 'Company page not connected.');
    const platform = await schedule({
      post: 'Not connected',
      platforms: ['professional'],
      scheduleDate: inHours(72),
    });
    postsvc.failPlatform('professional', null);
    expect(platform.status).toBe(500);
    expect(platform.body).toMatchObject({
      code: 'PLATFORM_ERROR',
      details: expect.stringContaining('Company page not connected.'),
    });
  });

  it('a partial failure is a failure that says per platform what went out, with the created post id in details', async () => {
    postsvc.failPlatform('professional', 'Token expired.');
    const response = await schedule({
      post: 'Half works',
      platforms: ['socialnet', 'professional'],
      scheduleDate: inHours(73),
    });
    postsvc.failPlatform('professional', null);
    expect(response.status).toBe(500);
    const created = postsvc.posts().find((p) => p.post === 'Half works')!;
    // In words per platform (issue #30.1); the provider's post id for integrators in details.
    expect(response.body.error).toBe('Posted on Socialnet. Professional refused it: Token expired.');
    expect(response.body.details).toMatchObject({ postsvcId: created.id, posted: ['socialnet'] });
    const cancel = await bridge.call('POST', '/postsvc/delete', { body: { id: created.id } });
    expect(cancel.status).toBe(200);
  });

  it('a wrong provider key → 500 AUTH_ERROR', async () => {
    const wrong = await start('business', 'not-the-key');
    try {
      const response = await wrong.call('POST', '/postsvc/schedule', {
        body: { post: 'x', platforms: ['socialnet'] },
      });
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({
        code: 'AUTH_ERROR',
        details: expect.stringContaining('API Key not valid'),
      });
    } finally {
      await wrong.close();
    }
  });
});

describe('POST /postsvc/delete and GET /postsvc/history', () => {
  it('cancels a scheduled post; an unknown id is 404', async () => {
    const created = await schedule({
      post: 'Cancel me',
      platforms: ['socialnet'],
      scheduleDate: inHours(80),
    });
    const response = await bridge.call('POST', '/postsvc/delete', { body: { id: created.body.id } });
    expect(response.body).toEqual({ success: true, message: `post ${created.body.id} cancelled` });
    expect(postsvc.posts().find((p) => p.id === created.body.id)?.status).toBe('deleted');
    const again = await bridge.call('POST', '/postsvc/delete', { body: { id: created.body.id } });
    expect(again.status).toBe(404);
  });

  it('lists provider posts with limit, status and platform filters', async () => {
    await schedule({
      post: 'History scheduled',
      platforms: ['pinboard'],
      scheduleDate: inHours(90),
      mediaUrls: ['https://cdn.example/pin.jpg'],
    });
    const all = await bridge.call('GET', '/postsvc/history');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeLessThanOrEqual(50);
    const one = await bridge.call('GET', '/postsvc/history?limit=1&status=scheduled&platform=pinboard');
    expect(one.body.data).toEqual([
      expect.objectContaining({
        post: 'History scheduled',
        platforms: ['pinboard'],
        status: 'scheduled',
        publishedAt: null,
        analytics: { likes: 0, comments: 0, shares: 0 },
      }),
    ]);
    const published = await bridge.call('GET', '/postsvc/history?status=published');
    expect(published.body.data.every((p: { status: string }) => p.status === 'published')).toBe(true);
    expect((await bridge.call('GET', '/postsvc/history?status=weird')).status).toBe(400);
  });
});

describe('GET /postsvc/analytics', () => {
  it('per platform, and per post', async () => {
    const platform = await bridge.call('GET', '/postsvc/analytics?platform=microblog');
    expect(platform.body).toMatchObject({
      success: true,
      platform: 'microblog',
      analytics: {
        followers: expect.any(Number),
        impressions: expect.any(Number),
        engagementRate: expect.any(Number),
      },
    });
    const published = await schedule({ post: 'Analytics now', platforms: ['socialnet'] });
    const post = await bridge.call('GET', `/postsvc/analytics?postId=${published.body.id}`);
    expect(post.body).toMatchObject({
      success: true,
      postId: published.body.id,
      analytics: { socialnet: { likes: expect.any(Number) } },
    });
    expect((await bridge.call('GET', '/postsvc/analytics')).status).toBe(400);
    expect(
      (await bridge.call('GET', '/postsvc/analytics?platform=microblog&startDate=2026-02-30')).status,
    ).toBe(400);
  });
});

describe('POST /postsvc/sync', () => {
  it('updates matching SocialPost records from the provider history, with exact counts', async () => {
    const day = 86_400_000;
    const published = postsvc.importPost({
      post: 'Went out',
      platforms: ['microblog'],
      created: new Date(Date.now() - 2 * day),
    });
    const failed = postsvc.importPost({
      post: 'Did not go out',
      platforms: ['socialnet'],
      created: new Date(Date.now() - 2 * day),
      failedPlatforms: { socialnet: 'Page removed.' },
    });
    const upcoming = postsvc.importPost({
      post: 'Still ahead',
      platforms: ['microblog'],
      created: new Date(Date.now() - day),
      scheduleDate: new Date(Date.now() + day),
    });
    const broken = postsvc.importPost({
      post: 'CRM refuses',
      platforms: ['microblog'],
      created: new Date(Date.now() - 3 * day),
    });
    const attrs = (content: string, postsvcId: string, status: string) => ({
      name: content,
      content,
      platform: 'Microblog',
      status,
      postsvcId,
      scheduledAt: toCrmDatetime(new Date(Date.now() - day)),
    });
    crm.clearWebhookTarget();
    const recPublished = crm.create('SocialPost', attrs('Went out', published.id, 'Scheduled'));
    const recFailed = crm.create('SocialPost', attrs('Did not go out', failed.id, 'Scheduled'));
    crm.create('SocialPost', attrs('Still ahead', upcoming.id, 'Scheduled'));
    const recBroken = crm.create('SocialPost', attrs('CRM refuses', broken.id, 'Scheduled'));
    crm.faults.injectFault({
      method: 'PUT',
      pathPrefix: `/api/v1/SocialPost/${recBroken.id}`,
      status: 500,
      times: 3,
    });

    const response = await bridge.call('POST', '/postsvc/sync');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      synced: 4,
      updated: 2,
      errors: 1,
      failures: [{ socialPostId: recBroken.id }],
    });
    expect(crm.get('SocialPost', recPublished.id)?.status).toBe('Published');
    expect(crm.get('SocialPost', recFailed.id)).toMatchObject({
      status: 'Failed',
      error: 'socialnet: Page removed.',
    });

    crm.faults.clearFaults();
    const again = await bridge.call('POST', '/postsvc/sync');
    expect(again.body).toMatchObject({ synced: 4, updated: 1, errors: 0 });
  });
});

describe('quota (spec §8), dashboard routes', () => {
  it('refuses the 11th post of the UTC day on the free plan before calling the provider, across API and webhooks', async () => {
    const free = await start('free');
    try {
      const posted = await free.call('GET', '/api/posts/quota');
      expect(posted.body.quota).toMatchObject({ plan: 'free', limit: 10, used: 0, left: 10 });
      for (let i = 0; i < 9; i++) {
        const response = await free.call('POST', '/postsvc/schedule', {
          body: { post: `Quota ${i}`, platforms: ['socialnet'], scheduleDate: inHours(200 + 3 * i) },
        });
        expect(response.status).toBe(200);
      }
      // The tenth through a webhook.
      crm.setWebhookTarget({ baseUrl: free.url, secret: SECRET, deliveryDelayMs: 10 });
      const record = crm.create('SocialPost', {
        name: 'Quota via CRM',
        content: 'Quota via CRM',
        platform: 'Socialnet',
        status: 'Scheduled',
        scheduledAt: toCrmDatetime(new Date(Date.now() + 300 * 3_600_000)),
      });
      await crm.flushWebhooks();
      await eventually(() => crm.get('SocialPost', record.id)?.postsvcId);
      expect(crm.get('SocialPost', record.id)?.postsvcId).toEqual(expect.any(String));

      const before = postsvc.callCount('/post', 'POST');
      const refused = await free.call('POST', '/postsvc/schedule', {
        body: { post: 'One too many', platforms: ['socialnet'] },
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: 'QUOTA_EXCEEDED',
        details: {
          plan: 'free',
          limit: 10,
          used: 10,
          left: 0,
          resetsAt: expect.stringMatching(/T00:00:00.000Z$/),
        },
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(postsvc.callCount('/post', 'POST')).toBe(before);

      // Through a webhook: the record fails with the quota message.
      const over = crm.create('SocialPost', {
        name: 'Over quota',
        content: 'Over quota',
        platform: 'Socialnet',
        status: 'Scheduled',
        scheduledAt: toCrmDatetime(new Date(Date.now() + 400 * 3_600_000)),
      });
      await crm.flushWebhooks();
      await eventually(() => crm.get('SocialPost', over.id)?.status === 'Failed');
      expect(crm.get('SocialPost', over.id)).toMatchObject({
        status: 'Failed',
        error: expect.stringContaining('daily posting quota used up'),
      });

      const health = await free.call('GET', '/health');
      expect(health.body.quota).toMatchObject({ plan: 'free', limit: 10, used: 10, left: 0 });
    } finally {
      crm.clearWebhookTarget();
      await free.close();
    }
  });

  it('GET /api/posts merges the ledger with the CRM; preview checks a draft without posting', async () => {
    const list = await bridge.call('GET', '/api/posts');
    expect(list.status).toBe(200);
    expect(list.body.crmError).toBeNull();
    const statuses = new Set(list.body.data.map((p: { status: string }) => p.status));
    expect(statuses.has('scheduled')).toBe(true);
    expect(statuses.has('cancelled')).toBe(true);
    expect(
      list.body.data.some(
        (p: { source: string; status: string }) => p.source === 'crm' && p.status === 'published',
      ),
    ).toBe(true);

    const window = await bridge.call(
      'GET',
      `/api/posts?from=${encodeURIComponent(inHours(47))}&to=${encodeURIComponent(inHours(49))}`,
    );
    expect(window.body.data.map((p: { post: string }) => p.post)).toEqual(['New #Podcast episode #studio']);

    const before = postsvc.callCount('/post', 'POST');
    const preview = await bridge.call('POST', '/api/posts/preview', {
      body: {
        post: 'x'.repeat(290),
        platforms: ['microblog', 'socialnet'],
        scheduleDate: inHours(48.5),
        hashtags: [],
      },
    });
    expect(preview.body).toMatchObject({
      lengths: [
        { platform: 'microblog', count: 290, limit: 280, over: true },
        { platform: 'socialnet', count: 290, over: false },
      ],
      errors: [{ field: 'post', rule: 'max-length' }],
      warnings: expect.arrayContaining([expect.stringContaining('socialnet: another post goes out')]),
    });
    expect(postsvc.callCount('/post', 'POST')).toBe(before);
  });
});
