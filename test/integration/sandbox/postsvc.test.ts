import { afterEach, describe, expect, it } from 'vitest';
import { postsvcErrorCodes, startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';

describe('sandbox posting provider (Ayrshare-shaped)', () => {
  let postsvc: SandboxPostsvc;
  let clock = Date.parse('2026-05-04T09:00:00Z');
  const now = () => new Date(clock);
  const call = async (method: string, path: string, body?: unknown, key: string | null = postsvc.apiKey) => {
    const res = await fetch(`${postsvc.url}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // JSON.parse: test bodies are read loosely; the assertions check their shape.
    return { status: res.status, headers: res.headers, json: JSON.parse(await res.text()) };
  };
  const start = async (options: Parameters<typeof startSandboxPostsvc>[0] = {}) => {
    clock = Date.parse('2026-05-04T09:00:00Z');
    postsvc = await startSandboxPostsvc({ now, ...options });
  };

  afterEach(() => postsvc.stop());

  it('needs the Bearer key: 401 with an error body', async () => {
    await start();
    const res = await call('GET', '/user', undefined, 'wrong');
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ status: 'error', code: postsvcErrorCodes.apiKeyInvalid });
    expect((await call('GET', '/user', undefined, null)).status).toBe(401);
    const user = await call('GET', '/user');
    expect(user.status).toBe(200);
    expect(user.json.activeSocialAccounts).toContain('microblog');
  });

  it('publishes at once without scheduleDate; schedules with one, which publishes when its time passes', async () => {
    await start();
    const now = await call('POST', '/post', { post: 'Hello', platforms: ['microblog', 'socialnet'] });
    expect(now.status).toBe(200);
    expect(now.json.status).toBe('success');
    expect(now.json.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(now.json.errors).toEqual([]);
    expect(now.json.postIds).toHaveLength(2);
    expect(now.json.postIds[0]).toMatchObject({ platform: 'microblog', status: 'success' });
    expect(now.json.postIds[0].postUrl).toMatch(/^https:\/\//);

    const later = await call('POST', '/post', {
      post: 'Later',
      platforms: ['professional'],
      scheduleDate: '2026-05-04T12:00:00Z',
    });
    expect(later.json).toMatchObject({
      status: 'scheduled',
      postIds: [{ platform: 'professional', status: 'scheduled' }],
    });
    let history = await call('GET', '/history?status=scheduled');
    expect(history.json.history.map((h: { id: string }) => h.id)).toEqual([later.json.id]);
    expect(history.json.history[0]).toMatchObject({
      type: 'schedule',
      scheduleDate: '2026-05-04T12:00:00.000Z',
    });

    clock = Date.parse('2026-05-04T12:00:01Z');
    history = await call('GET', '/history?status=success');
    const published = history.json.history.find((h: { id: string }) => h.id === later.json.id);
    expect(published.status).toBe('success');
    expect(published.publishedAt).toBe('2026-05-04T12:00:00.000Z');
    expect(published.postIds[0]).toMatchObject({ status: 'success' });
    expect(published.postIds[0].postUrl).toContain('professional.example');
  });

  it('validates: post text, platform keys, ISO scheduleDate, dates in the past, per-platform limits', async () => {
    await start();
    const noText = await call('POST', '/post', { platforms: ['microblog'] });
    expect(noText.status).toBe(400);
    expect(noText.json).toMatchObject({
      status: 'error',
      code: postsvcErrorCodes.missingParameters,
      errors: [],
    });
    expect((await call('POST', '/post', { post: 'x', platforms: ['myspace'] })).status).toBe(400);
    expect(
      (
        await call('POST', '/post', {
          post: 'x',
          platforms: ['microblog'],
          scheduleDate: '2026-05-04 12:00:00',
        })
      ).status,
    ).toBe(400);
    const past = await call('POST', '/post', {
      post: 'x',
      platforms: ['microblog'],
      scheduleDate: '2026-05-04T08:00:00Z',
    });
    expect(past.json.code).toBe(postsvcErrorCodes.scheduleDateInPast);
    const long = await call('POST', '/post', { post: 'x'.repeat(281), platforms: ['microblog'] });
    expect(long.status).toBe(400);
    expect(long.json.errors[0]).toMatchObject({ platform: 'microblog', code: postsvcErrorCodes.postTooLong });
    const noMedia = await call('POST', '/post', { post: 'clip!', platforms: ['shortvideo'] });
    expect(noMedia.json.errors[0]).toMatchObject({
      platform: 'shortvideo',
      code: postsvcErrorCodes.mediaRequired,
    });
    const badMedia = await call('POST', '/post', {
      post: 'x',
      platforms: ['microblog'],
      mediaUrls: ['https://cdn.unreachable.invalid/a.jpg'],
    });
    expect(badMedia.json.code).toBe(postsvcErrorCodes.mediaUnreachable);
  });

  it('idempotencyKey: a repeated key returns the same post and never makes a second one', async () => {
    await start();
    const body = {
      post: 'Once',
      platforms: ['microblog'],
      scheduleDate: '2026-05-04T09:30:00Z',
      idempotencyKey: 'sp-1:abc',
    };
    const first = await call('POST', '/post', body);
    const second = await call('POST', '/post', body);
    expect(second.status).toBe(200);
    expect(second.json.id).toBe(first.json.id);
    // Even after the date has passed (a retry after a timeout), the key wins over validation.
    clock = Date.parse('2026-05-04T10:00:00Z');
    const third = await call('POST', '/post', body);
    expect(third.json.id).toBe(first.json.id);
    expect(third.json.status).toBe('success');
    expect(postsvc.posts()).toHaveLength(1);
    expect(postsvc.quota().used).toBe(1);
  });

  it('partial failure: status "error" with the working platforms in postIds (HTTP 200); all failing: 400', async () => {
    await start();
    postsvc.failPlatform('socialnet', 'Socialnet token expired, relink the account');
    const partial = await call('POST', '/post', { post: 'Both', platforms: ['microblog', 'socialnet'] });
    expect(partial.status).toBe(200);
    expect(partial.json.status).toBe('error');
    expect(partial.json.postIds).toEqual([
      expect.objectContaining({ platform: 'microblog', status: 'success' }),
    ]);
    expect(partial.json.errors).toEqual([
      expect.objectContaining({
        platform: 'socialnet',
        status: 'error',
        message: 'Socialnet token expired, relink the account',
      }),
    ]);
    expect(typeof partial.json.errors[0].code).toBe('number');
    const all = await call('POST', '/post', { post: 'Only socialnet', platforms: ['socialnet'] });
    expect(all.status).toBe(400);
    expect(all.json).toMatchObject({ status: 'error', postIds: [] });

    // A scheduled post whose platform fails by publishing time turns into an error then.
    postsvc.failPlatform('socialnet', null);
    const scheduled = await call('POST', '/post', {
      post: 's',
      platforms: ['socialnet'],
      scheduleDate: '2026-05-04T10:00:00Z',
    });
    expect(scheduled.json.status).toBe('scheduled');
    postsvc.failPlatform('photogram', 'not used');
    postsvc.failPlatform('socialnet', 'Page was unpublished');
    clock = Date.parse('2026-05-04T10:00:00Z');
    const history = await call('GET', '/history?status=error&platforms=socialnet');
    expect(history.json.history.map((h: { id: string }) => h.id)).toContain(scheduled.json.id);
  });

  it('quota: the plan’s posts per UTC day, then 429 with Retry-After and rate-limit headers', async () => {
    await start({ plan: 'free' });
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/post', { post: `post ${i}`, platforms: ['microblog'] });
      expect(res.status).toBe(200);
    }
    const over = await call('POST', '/post', { post: 'eleventh', platforms: ['microblog'] });
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ status: 'error', code: postsvcErrorCodes.dailyQuota, errors: [] });
    expect(over.json.message).toMatch(/free plan allows 10/);
    // 09:00 UTC: 15 hours until the next UTC day.
    expect(over.headers.get('retry-after')).toBe(String(15 * 3600));
    expect(over.headers.get('x-ratelimit-max')).toBe('600');
    expect(over.headers.get('x-ratelimit-count')).toBe('11');
    clock = Date.parse('2026-05-05T00:00:00Z');
    expect((await call('POST', '/post', { post: 'next day', platforms: ['microblog'] })).status).toBe(200);
    postsvc.setPlan('premium');
    expect(postsvc.quota()).toMatchObject({ plan: 'premium', limit: 100, used: 1 });
  });

  it('rate limit per minute: 429 with Retry-After, headers on every answer', async () => {
    await start({ rateLimitPerMinute: 3 });
    const counts: string[] = [];
    for (let i = 0; i < 3; i++)
      counts.push((await call('GET', '/user')).headers.get('x-ratelimit-count') ?? '');
    expect(counts).toEqual(['1', '2', '3']);
    const limited = await call('GET', '/user');
    expect(limited.status).toBe(429);
    expect(limited.json.status).toBe('error');
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('x-ratelimit-max')).toBe('3');
    clock += 61_000;
    expect((await call('GET', '/user')).status).toBe(200);
  });

  it('DELETE /post cancels; an unknown id is 404 with code 186', async () => {
    await start();
    const post = await call('POST', '/post', {
      post: 'bye',
      platforms: ['microblog'],
      scheduleDate: '2026-05-05T09:00:00Z',
    });
    const del = await call('DELETE', '/post', { id: post.json.id });
    expect(del.json).toMatchObject({ status: 'success', id: post.json.id });
    expect((await call('GET', '/history?status=deleted')).json.history).toHaveLength(1);
    const unknown = await call('DELETE', '/post', { id: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ status: 'error', code: 186 });
  });

  it('PATCH /post moves a scheduled post in place (Premium and up): same post, no quota; a date in the past publishes it at once', async () => {
    await start({ plan: 'premium' });
    const made = await call('POST', '/post', {
      post: 'Moved later',
      platforms: ['microblog'],
      scheduleDate: '2026-05-04T12:00:00Z',
    });
    const used = postsvc.quota().used;
    const moved = await call('PATCH', '/post', { id: made.json.id, scheduleDate: '2026-05-05T08:30:00Z' });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({
      status: 'success',
      id: made.json.id,
      scheduleDate: '2026-05-05T08:30:00.000Z',
    });
    expect(postsvc.posts()).toEqual([
      expect.objectContaining({
        id: made.json.id,
        status: 'scheduled',
        scheduleDate: '2026-05-05T08:30:00.000Z',
      }),
    ]);
    expect(postsvc.quota().used).toBe(used);

    const now = await call('PATCH', '/post', { id: made.json.id, scheduleDate: '2026-05-04T08:00:00Z' });
    expect(now.status).toBe(200);
    const [post] = postsvc.posts();
    expect(post).toMatchObject({ status: 'success', publishedAt: now.json.publishedAt });
    expect(post!.postIds[0]).toMatchObject({ platform: 'microblog', status: 'success' });
  });

  it('PATCH /post refuses: 403 on the free plan, 404 code 186 for an unknown id, a post already out, a bad date', async () => {
    await start({ plan: 'free' });
    const made = await call('POST', '/post', {
      post: 'Stays put',
      platforms: ['microblog'],
      scheduleDate: '2026-05-04T12:00:00Z',
    });
    const free = await call('PATCH', '/post', { id: made.json.id, scheduleDate: '2026-05-05T08:30:00Z' });
    expect(free.status).toBe(403);
    expect(free.json).toMatchObject({ status: 'error', code: postsvcErrorCodes.planRequired });
    postsvc.setPlan('business');
    const unknown = await call('PATCH', '/post', {
      id: 'no-such-post',
      scheduleDate: '2026-05-05T08:30:00Z',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ status: 'error', code: postsvcErrorCodes.postNotFound });
    const bad = await call('PATCH', '/post', { id: made.json.id, scheduleDate: 'tomorrow' });
    expect(bad.status).toBe(400);
    clock = Date.parse('2026-05-04T12:00:05Z');
    const out = await call('PATCH', '/post', { id: made.json.id, scheduleDate: '2026-05-05T08:30:00Z' });
    expect(out.status).toBe(400);
    expect(out.json).toMatchObject({ status: 'error', code: postsvcErrorCodes.postNotPending });
    expect(postsvc.posts()[0]).toMatchObject({ status: 'success', scheduleDate: '2026-05-04T12:00:00.000Z' });
    const published = await call('POST', '/post', { post: 'Out at once', platforms: ['microblog'] });
    const notScheduled = await call('PATCH', '/post', {
      id: published.json.id,
      scheduleDate: '2026-05-05T08:30:00Z',
    });
    expect(notScheduled.json).toMatchObject({ code: postsvcErrorCodes.postNotPending });
  });

  it('history: newest first, limit (default 100, max 1000) and offset paging, platform filter', async () => {
    await start({ plan: 'business' });
    for (let i = 0; i < 5; i++) {
      clock += 1000;
      await call('POST', '/post', { post: `n${i}`, platforms: [i % 2 ? 'socialnet' : 'microblog'] });
    }
    const all = await call('GET', '/history');
    expect(all.json.history.map((h: { post: string }) => h.post)).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
    const page = await call('GET', '/history?limit=2&offset=2');
    expect(page.json.history.map((h: { post: string }) => h.post)).toEqual(['n2', 'n1']);
    const socialnet = await call('GET', '/history?platforms=socialnet');
    expect(socialnet.json.history.map((h: { post: string }) => h.post)).toEqual(['n3', 'n1']);
    expect((await call('GET', '/history?limit=1001')).status).toBe(400);
    expect(postsvc.callCount('/history')).toBe(4);
    expect(postsvc.callCount('/post', 'POST')).toBe(5);
  });

  it('analytics are deterministic and grow over time; a failing platform answers an error in its slot', async () => {
    await start();
    const a = await call('POST', '/analytics/social', { platforms: ['microblog', 'photogram'] });
    const b = await call('POST', '/analytics/social', { platforms: ['microblog', 'photogram'] });
    expect(a.json).toEqual(b.json);
    expect(a.json.status).toBe('success');
    expect(Object.keys(a.json.microblog.analytics).sort()).toEqual(
      ['engagement', 'engagementRate', 'followers', 'following', 'impressions', 'reach'].sort(),
    );
    clock += 30 * 86_400_000;
    const later = await call('POST', '/analytics/social', { platforms: ['microblog'] });
    expect(later.json.microblog.analytics.followers).toBeGreaterThan(a.json.microblog.analytics.followers);

    postsvc.failPlatform('photogram', 'Photogram API is down');
    const partial = await call('POST', '/analytics/social', { platforms: ['microblog', 'photogram'] });
    expect(partial.json.photogram).toMatchObject({ status: 'error', message: 'Photogram API is down' });
    expect(partial.json.microblog.analytics).toBeDefined();

    const post = await call('POST', '/post', { post: 'measure me', platforms: ['microblog'] });
    clock += 3 * 3_600_000;
    const early = await call('POST', '/analytics/post', { id: post.json.id });
    clock += 48 * 3_600_000;
    const late = await call('POST', '/analytics/post', { id: post.json.id });
    expect(early.json).toMatchObject({ status: 'success', id: post.json.id });
    const keys = Object.keys(early.json.microblog.analytics).sort();
    expect(keys).toEqual(['clicks', 'comments', 'impressions', 'likes', 'shares']);
    expect(late.json.microblog.analytics.impressions).toBeGreaterThan(
      early.json.microblog.analytics.impressions,
    );
    expect((await call('POST', '/analytics/post', { id: 'missing' })).json.code).toBe(186);
  });
});
