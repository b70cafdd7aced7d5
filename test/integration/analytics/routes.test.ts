import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Spec §4.2 over HTTP against a real bridge that collected three days (and one same-day rerun)
 * from the simulated provider, on a shared test clock.
 */
const DAY = 86_400_000;
const clock = { at: Date.parse('2026-03-10T12:00:00.000Z') };
const now = () => new Date(clock.at);
const allPlatforms = [
  'microblog',
  'photogram',
  'pinboard',
  'professional',
  'shortvideo',
  'socialnet',
  'videosite',
];

let postsvc: SandboxPostsvc;
let bridge: TestBridge;
const firstDayImpressions: Record<string, number> = {};

async function finishedRun(runId: number) {
  return eventually(async () => {
    const runs = await bridge.call('GET', '/analytics/runs');
    const run = runs.body.data.find((r: { id: number }) => r.id === runId);
    return run && run.status !== 'running' ? run : null;
  }, 20_000);
}

async function collect() {
  const started = await bridge.call('POST', '/analytics/collect');
  expect(started.status).toBe(200);
  return finishedRun(started.body.runId);
}

function openStore() {
  return new Database(path.join(bridge.dataDir, 'bridge.sqlite'), { readonly: true });
}

beforeAll(async () => {
  postsvc = await startSandboxPostsvc({ now, seed: 11 });
  const texts = [
    'Episode 1 is out',
    'Behind the scenes',
    'Guest announcement',
    'Clip: the best bit',
    'Q&A recap',
  ];
  texts.forEach((post, i) =>
    postsvc.importPost({
      post,
      platforms: i === 0 ? ['microblog', 'socialnet'] : [i % 2 ? 'microblog' : 'socialnet'],
      created: new Date(clock.at - (i + 2) * DAY),
    }),
  );
  bridge = await startTestBridge({ POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey }, { now });
  // The start-up catch-up collects day 1 (no successful run yet).
  expect((await finishedRun(1)).trigger).toBe('catch-up');
  const day1 = await bridge.call('GET', '/analytics/social-metrics');
  for (const row of day1.body.data) firstDayImpressions[row.platform] = row.impressions;
  clock.at += DAY;
  expect((await collect()).status).toBe('succeeded');
  clock.at += DAY;
  expect((await collect()).status).toBe('succeeded');
});

afterAll(async () => {
  await bridge?.close();
  await postsvc?.stop();
});

describe('GET /analytics/social-metrics', () => {
  it('lists every day and platform collected, newest day first then platform, with the spec fields', async () => {
    const { status, body } = await bridge.call('GET', '/analytics/social-metrics');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(21);
    expect(Object.keys(body.data[0]).sort()).toEqual(
      ['engagement', 'followers', 'impressions', 'metric_date', 'platform', 'reach'].sort(),
    );
    expect(body.data.slice(0, 7).map((r: { platform: string }) => r.platform)).toEqual(allPlatforms);
    const dates = body.data.map((r: { metric_date: string }) => r.metric_date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(new Set(dates)).toEqual(new Set(['2026-03-10', '2026-03-11', '2026-03-12']));
  });

  it('treats startDate and endDate as inclusive and filters by platform', async () => {
    const oneDay = await bridge.call(
      'GET',
      '/analytics/social-metrics?startDate=2026-03-11&endDate=2026-03-11',
    );
    expect(oneDay.body.data).toHaveLength(7);
    expect(oneDay.body.data.every((r: { metric_date: string }) => r.metric_date === '2026-03-11')).toBe(true);
    expect(
      (await bridge.call('GET', '/analytics/social-metrics?startDate=2026-03-11')).body.data,
    ).toHaveLength(14);
    expect((await bridge.call('GET', '/analytics/social-metrics?endDate=2026-03-11')).body.data).toHaveLength(
      14,
    );
    const photogram = await bridge.call('GET', '/analytics/social-metrics?platform=photogram');
    expect(photogram.body.data.map((r: { metric_date: string }) => r.metric_date)).toEqual([
      '2026-03-12',
      '2026-03-11',
      '2026-03-10',
    ]);
    expect((await bridge.call('GET', '/analytics/social-metrics?platform=Photogram')).body.data).toHaveLength(
      3,
    );
  });

  it('answers 400 INVALID_DATE for impossible dates and a start after the end', async () => {
    for (const query of [
      'startDate=2026-02-30',
      'endDate=2026-13-01',
      'startDate=10-03-2026',
      'startDate=2026-03-12&endDate=2026-03-11',
    ]) {
      const { status, body } = await bridge.call('GET', `/analytics/social-metrics?${query}`);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ success: false, code: 'INVALID_DATE' });
      expect(body.error).toMatch(/startDate|endDate/);
    }
  });

  it('answers 400 VALIDATION_ERROR naming an unknown platform', async () => {
    const { status, body } = await bridge.call('GET', '/analytics/social-metrics?platform=myspace');
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.error).toMatch(/^query\.platform: /);
  });

  it('overwrites a day when it is collected again that day', async () => {
    const before = await bridge.call('GET', '/analytics/social-metrics?startDate=2026-03-12');
    clock.at += 3 * 3_600_000; // same UTC day, later: the provider's "today so far" has grown
    expect((await collect()).status).toBe('succeeded');
    const after = await bridge.call('GET', '/analytics/social-metrics?startDate=2026-03-12');
    expect(after.body.data).toHaveLength(7);
    for (const row of after.body.data) {
      const earlier = before.body.data.find((r: { platform: string }) => r.platform === row.platform);
      expect(row.impressions).toBeGreaterThan(earlier.impressions);
    }
    // Earlier days are untouched.
    const day1 = await bridge.call(
      'GET',
      '/analytics/social-metrics?startDate=2026-03-10&endDate=2026-03-10',
    );
    for (const row of day1.body.data) expect(row.impressions).toBe(firstDayImpressions[row.platform]);
  });
});

describe('GET /analytics/followers', () => {
  it('defaults to the last 30 days and counts today as one of them', async () => {
    const all = await bridge.call('GET', '/analytics/followers');
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(21);
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['count', 'date', 'platform']);
    expect(all.body.data[0]).toMatchObject({ date: '2026-03-12', platform: 'microblog' });
    expect((await bridge.call('GET', '/analytics/followers?days=1')).body.data).toHaveLength(7);
    const two = await bridge.call('GET', '/analytics/followers?days=2&platform=microblog');
    expect(two.body.data.map((r: { date: string }) => r.date)).toEqual(['2026-03-12', '2026-03-11']);
  });

  it('refuses days that are not a positive whole number', async () => {
    for (const days of ['0', '-3', 'abc', '2.5']) {
      const { status, body } = await bridge.call('GET', `/analytics/followers?days=${days}`);
      expect(status, days).toBe(400);
      expect(body.error).toMatch(/query\.days/);
    }
  });
});

describe('GET /analytics/top-posts', () => {
  interface Top {
    post_id: string;
    platform: string;
    postsvc_id: string;
    likes: number;
    comments: number;
    shares: number;
    impressions: number;
    total_engagement: number;
    engagement_rate: number;
  }

  it('ranks each post once by its latest snapshot, by engagement by default', async () => {
    const { status, body } = await bridge.call('GET', '/analytics/top-posts');
    expect(status).toBe(200);
    const rows = body.data as Top[];
    expect(rows).toHaveLength(6); // 5 provider posts, one of them on two platforms
    expect(new Set(rows.map((r) => r.post_id)).size).toBe(6);
    for (const key of [
      'post_id',
      'platform',
      'content',
      'likes',
      'comments',
      'shares',
      'total_engagement',
      'engagement_rate',
    ]) {
      expect(rows[0]).toHaveProperty(key);
    }
    for (const row of rows) {
      expect(row.total_engagement).toBe(row.likes + row.comments + row.shares);
      const rate =
        row.impressions === 0 ? 0 : Math.round((row.total_engagement / row.impressions) * 10_000) / 10_000;
      expect(row.engagement_rate).toBe(rate);
    }
    const totals = rows.map((r) => r.total_engagement);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));

    // Four collections kept four snapshots per post and platform; the ranking used the latest.
    const db = openStore();
    try {
      expect(db.prepare('SELECT count(*) AS n FROM post_performance').get()).toEqual({ n: 24 });
      const latest = db
        .prepare<[string, string], { likes: number }>(
          'SELECT likes FROM post_performance WHERE postsvc_id = ? AND platform = ? ORDER BY collected_at DESC LIMIT 1',
        )
        .get(rows[0]!.postsvc_id, rows[0]!.platform);
      expect(rows[0]!.likes).toBe(latest?.likes);
    } finally {
      db.close();
    }
  });

  it('sorts by likes or shares, limits, and filters by platform', async () => {
    const likes = (await bridge.call('GET', '/analytics/top-posts?metric=likes')).body.data as Top[];
    expect(likes.map((r) => r.likes)).toEqual(likes.map((r) => r.likes).sort((a, b) => b - a));
    const shares = (await bridge.call('GET', '/analytics/top-posts?metric=shares&limit=2')).body
      .data as Top[];
    expect(shares).toHaveLength(2);
    expect(shares[0]!.shares).toBeGreaterThanOrEqual(shares[1]!.shares);
    const socialnet = (await bridge.call('GET', '/analytics/top-posts?platform=socialnet')).body
      .data as Top[];
    expect(socialnet.length).toBe(3);
    expect(socialnet.every((r) => r.platform === 'socialnet')).toBe(true);
  });

  it('answers 400 naming an unknown metric or a bad limit', async () => {
    const metric = await bridge.call('GET', '/analytics/top-posts?metric=views');
    expect(metric.status).toBe(400);
    expect(metric.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(metric.body.error).toMatch(/^query\.metric: /);
    expect((await bridge.call('GET', '/analytics/top-posts?limit=0')).body.error).toMatch(/query\.limit/);
  });
});

describe('POST /analytics/collect and the run log', () => {
  it('answers at once with the run id, a message and the platforms', async () => {
    const { status, body } = await bridge.call('POST', '/analytics/collect');
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, runId: expect.any(Number), message: expect.any(String) });
    expect(body.platforms).toEqual(
      expect.arrayContaining(['microblog', 'socialnet', 'photogram', 'professional']),
    );
    const run = await finishedRun(body.runId);
    expect(run).toMatchObject({
      trigger: 'manual',
      status: 'succeeded',
      posts_collected: 5,
      error_code: null,
    });
    expect(run.outcomes).toHaveLength(7);
    const health = await bridge.call('GET', '/health');
    expect(health.body.lastCollection).toMatchObject({ id: body.runId, status: 'succeeded' });
    const progress = await bridge.call('GET', '/api/activity?type=collection.progress&limit=500');
    const phases = progress.body.data
      .filter((e: { data: { runId: number } }) => e.data.runId === body.runId)
      .map((e: { data: { phase: string } }) => e.data.phase);
    expect(phases).toEqual(expect.arrayContaining(['started', 'social', 'posts', 'writing']));
  });
});

describe('content metrics', () => {
  const ingest = (body: unknown) => bridge.call('POST', '/analytics/content-ingest', { body });

  it('stores a snapshot and answers with its id', async () => {
    const first = await ingest({
      contentId: 'cp-1',
      platform: 'videosite',
      platformContentId: 'vid-abc',
      views: 1200,
      watchHours: 85.5,
      likes: 40,
      comments: 6,
      shares: 3,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, message: expect.any(String), id: expect.any(Number) });
    const second = await ingest({
      contentId: 'cp-1',
      platform: 'altvideo',
      platformContentId: 'alt-1',
      views: 300,
      watchHours: 12.25,
      likes: 9,
      comments: 1,
      shares: 0,
    });
    expect(second.body.id).toBe(first.body.id + 1);
    await ingest({
      contentId: 'cp-2',
      platform: 'videosite',
      views: 50,
      collectedAt: '2026-03-01T08:00:00Z',
    });
    await ingest({ contentId: 'cp-1', platform: 'videosite', views: 1500, watchHours: 101 });
  });

  it('lists snapshots newest first with the spec fields, filtered by content, platform and inclusive dates', async () => {
    const all = await bridge.call('GET', '/analytics/content-metrics');
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(4);
    for (const key of [
      'content_id',
      'platform',
      'views',
      'watch_hours',
      'likes',
      'comments',
      'collected_at',
    ]) {
      expect(all.body.data[0]).toHaveProperty(key);
    }
    expect(all.body.data.at(-1)).toMatchObject({
      content_id: 'cp-2',
      collected_at: '2026-03-01T08:00:00.000Z',
    });
    const video = await bridge.call('GET', '/analytics/content-metrics?contentId=cp-1&platform=videosite');
    expect(video.body.data.map((r: { views: number }) => r.views)).toEqual([1500, 1200]);
    expect(video.body.data[1]).toMatchObject({ watch_hours: 85.5, platform_content_id: 'vid-abc' });
    const march1 = await bridge.call(
      'GET',
      '/analytics/content-metrics?startDate=2026-03-01&endDate=2026-03-01',
    );
    expect(march1.body.data.map((r: { content_id: string }) => r.content_id)).toEqual(['cp-2']);
    const today = await bridge.call('GET', '/analytics/content-metrics?startDate=2026-03-12');
    expect(today.body.data).toHaveLength(3);
    const latest = await bridge.call('GET', '/analytics/content-metrics?latest=true&contentId=cp-1');
    expect(
      latest.body.data.map((r: { platform: string; views: number }) => `${r.platform}:${r.views}`).sort(),
    ).toEqual(['altvideo:300', 'videosite:1500']);
  });

  it('refuses bad input with the field named', async () => {
    const missing = await ingest({ platform: 'videosite', views: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/body\.contentId/);
    expect((await ingest({ contentId: 'x', platform: 'videosite', views: -1 })).body.error).toMatch(
      /body\.views/,
    );
    expect((await ingest({ contentId: 'x', platform: 'video site', views: 1 })).body.error).toMatch(
      /body\.platform/,
    );
    expect(
      (await ingest({ contentId: 'x', platform: 'videosite', views: 1, watchHours: 'lots' })).body.error,
    ).toMatch(/body\.watchHours/);
    const date = await bridge.call('GET', '/analytics/content-metrics?endDate=2026-02-29');
    expect(date.body).toMatchObject({ code: 'INVALID_DATE' });
  });
});

describe('the API surface', () => {
  it('needs the bridge key and is listed in /openapi.json', async () => {
    expect((await bridge.call('GET', '/analytics/top-posts', { key: null })).status).toBe(401);
    const openapi = await bridge.call('GET', '/openapi.json');
    for (const route of [
      '/analytics/social-metrics',
      '/analytics/followers',
      '/analytics/top-posts',
      '/analytics/collect',
      '/analytics/content-ingest',
      '/analytics/content-metrics',
      '/analytics/runs',
    ]) {
      expect(openapi.body.paths, route).toHaveProperty(route);
    }
  });

  it('answers 500 DB_ERROR when the store fails', async () => {
    const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'));
    try {
      db.exec('DROP TABLE content_metrics');
    } finally {
      db.close();
    }
    const { status, body } = await bridge.call('GET', '/analytics/content-metrics');
    expect(status).toBe(500);
    expect(body).toMatchObject({ success: false, code: 'DB_ERROR' });
    expect(body.error).toMatch(/content metrics/);
  });
});
