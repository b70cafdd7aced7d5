import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  analyticsQueries,
  createAnalyticsRepo,
  type AnalyticsQueryName,
  type PostSnapshotWrite,
} from '../../../main/areas/analytics/repo.js';
import { migrations } from '../../../main/areas/analytics/migrations/index.js';
import { openDatabase, type Db } from '../../../main/kernel/db.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

const dirs: TempDir[] = [];
const opened: Db[] = [];
function fresh() {
  const dir = tempDir('analytics-repo');
  dirs.push(dir);
  const db = openDatabase(path.join(dir.path, 'bridge.sqlite'), { migrations });
  opened.push(db);
  return { db, repo: createAnalyticsRepo(db) };
}
afterEach(() => {
  opened.splice(0).forEach((db) => db.open && db.close());
  dirs.splice(0).forEach((dir) => dir.remove());
});

const social = (
  metric_date: string,
  platform: string,
  impressions: number,
  collected_at = `${metric_date}T06:00:00.000Z`,
) => ({
  metric_date,
  platform,
  impressions,
  engagement: Math.round(impressions / 10),
  reach: Math.round(impressions / 2),
  followers: 1000,
  collected_at,
});
const snapshot = (
  postsvc_id: string,
  platform: string,
  collected_at: string,
  numbers: Partial<Pick<PostSnapshotWrite, 'likes' | 'comments' | 'shares' | 'impressions'>> = {},
): PostSnapshotWrite => ({
  post_id: `${postsvc_id}-${platform}`,
  platform,
  postsvc_id,
  content: `post ${postsvc_id}`,
  likes: 0,
  comments: 0,
  shares: 0,
  impressions: 100,
  collected_at,
  ...numbers,
});
const finish = {
  status: 'succeeded' as const,
  finished_at: '2026-03-01T06:01:00.000Z',
  platforms: ['microblog'],
  outcomes: [],
  posts_seen: 0,
  posts_collected: 0,
  posts_failed: 0,
  error_code: null,
  error: null,
};

describe('analytics store (spec §2.7, DESIGN §6.5)', () => {
  it('keeps one social row per day and platform: a later collection that day overwrites it', () => {
    const { repo } = fresh();
    const run = repo.startRun('manual', '2026-03-01T06:00:00.000Z', ['microblog']);
    repo.writeRun(
      run,
      { social: [social('2026-03-01', 'microblog', 100)], followers: [], posts: [] },
      finish,
    );
    const second = repo.startRun('manual', '2026-03-01T12:00:00.000Z', ['microblog']);
    repo.writeRun(
      second,
      {
        social: [social('2026-03-01', 'microblog', 250, '2026-03-01T12:00:00.000Z')],
        followers: [{ date: '2026-03-01', platform: 'microblog', count: 7, collected_at: 'x' }],
        posts: [],
      },
      finish,
    );
    repo.writeRun(
      repo.startRun('manual', '2026-03-01T18:00:00.000Z', ['microblog']),
      {
        social: [],
        followers: [{ date: '2026-03-01', platform: 'microblog', count: 9, collected_at: 'y' }],
        posts: [],
      },
      finish,
    );
    expect(repo.socialMetrics({})).toEqual([
      {
        metric_date: '2026-03-01',
        platform: 'microblog',
        impressions: 250,
        engagement: 25,
        reach: 125,
        followers: 1000,
      },
    ]);
    expect(repo.followers({ since: '2026-01-01' })).toEqual([
      { date: '2026-03-01', platform: 'microblog', count: 9 },
    ]);
  });

  it('filters social metrics by inclusive dates and platform, newest day first then platform', () => {
    const { repo } = fresh();
    repo.insertHistory({
      social: ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'].flatMap((day) => [
        social(day, 'socialnet', 1),
        social(day, 'microblog', 2),
      ]),
    });
    const rows = repo.socialMetrics({ start: '2026-02-28', end: '2026-03-01' });
    expect(rows.map((r) => `${r.metric_date} ${r.platform}`)).toEqual([
      '2026-03-01 microblog',
      '2026-03-01 socialnet',
      '2026-02-28 microblog',
      '2026-02-28 socialnet',
    ]);
    expect(
      repo.socialMetrics({ end: '2026-02-27', platform: 'socialnet' }).map((r) => r.metric_date),
    ).toEqual(['2026-02-27']);
    expect(repo.socialMetrics({ start: '2026-03-02', platform: 'microblog' })).toHaveLength(1);
  });

  it('keeps every post snapshot; top posts rank each post once by its latest snapshot', () => {
    const { db, repo } = fresh();
    repo.insertHistory({
      posts: [
        snapshot('a', 'microblog', '2026-03-01T06:00:00Z', { likes: 500 }),
        snapshot('a', 'microblog', '2026-03-01T12:00:00Z', { likes: 10 }),
        snapshot('b', 'microblog', '2026-03-01T12:00:00Z', { likes: 50, shares: 40 }),
        snapshot('b', 'socialnet', '2026-03-01T12:00:00Z', { likes: 60, impressions: 0 }),
        // An older snapshot arriving late does not replace the latest.
        snapshot('b', 'microblog', '2026-02-01T12:00:00Z', { likes: 9_999 }),
      ],
    });
    expect(db.prepare('SELECT count(*) AS n FROM post_performance').get()).toEqual({ n: 5 });
    const byEngagement = repo.topPosts({ metric: 'engagement', limit: 10 });
    expect(byEngagement.map((r) => `${r.postsvc_id}/${r.platform}:${r.likes}`)).toEqual([
      'b/microblog:50',
      'b/socialnet:60',
      'a/microblog:10',
    ]);
    expect(repo.topPosts({ metric: 'likes', limit: 1 }).map((r) => r.post_id)).toEqual(['b-socialnet']);
    expect(
      repo.topPosts({ metric: 'shares', limit: 10, platform: 'microblog' }).map((r) => r.post_id),
    ).toEqual(['b-microblog', 'a-microblog']);
    expect(
      repo
        .latestOfPost('b')
        .map((r) => r.platform)
        .sort(),
    ).toEqual(['microblog', 'socialnet']);
  });

  it('writes a run atomically: a failure mid-write leaves neither rows nor a finished run', () => {
    const { db, repo } = fresh();
    const run = repo.startRun('manual', '2026-03-01T06:00:00.000Z', ['microblog']);
    const broken = {
      ...snapshot('z', 'microblog', '2026-03-01T06:00:00Z'),
      content: null as unknown as string,
    };
    expect(() =>
      repo.writeRun(
        run,
        {
          social: [social('2026-03-01', 'microblog', 5)],
          followers: [],
          posts: [snapshot('y', 'microblog', 'x'), broken],
        },
        finish,
      ),
    ).toThrow(/NOT NULL/);
    expect(repo.socialMetrics({})).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM post_performance').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM post_latest').get()).toEqual({ n: 0 });
    expect(repo.run(run)?.status).toBe('running');
  });

  it('marks runs left running by a stopped bridge as failed, and finds the last successful one', () => {
    const { repo } = fresh();
    const done = repo.startRun('timer', '2026-03-01T00:00:00.000Z', ['microblog']);
    repo.writeRun(done, { social: [], followers: [], posts: [] }, { ...finish, status: 'partial' });
    const left = repo.startRun('timer', '2026-03-01T06:00:00.000Z', ['microblog']);
    expect(repo.abandonRunning('2026-03-01T07:00:00.000Z').map((r) => r.id)).toEqual([left]);
    expect(repo.run(left)).toMatchObject({ status: 'failed', error_code: 'COLLECTION_FAILED' });
    expect(repo.lastSuccessfulRun()?.id).toBe(done);
    expect(repo.lastRun()?.id).toBe(left);
    expect(repo.runs(10).map((r) => r.id)).toEqual([left, done]);
  });

  it('filters content metrics by content, platform and the UTC day of collected_at; latest per pair', () => {
    const { repo } = fresh();
    const content = (content_id: string, platform: string, collected_at: string, views: number) => ({
      content_id,
      content_name: null,
      platform,
      platform_content_id: null,
      views,
      watch_hours: views / 10,
      likes: 0,
      comments: 0,
      shares: 0,
      collected_at,
    });
    repo.insertHistory({
      content: [
        content('c1', 'videosite', '2026-03-01T00:00:00.000Z', 10),
        content('c1', 'videosite', '2026-03-02T23:59:59.999Z', 20),
        content('c1', 'altvideo', '2026-03-02T10:00:00.000Z', 5),
        content('c2', 'videosite', '2026-03-03T00:00:00.000Z', 7),
      ],
    });
    const base = { latest: false, limit: 100 };
    expect(
      repo.contentMetrics({ ...base, start: '2026-03-01', end: '2026-03-02' }).map((r) => r.views),
    ).toEqual([20, 5, 10]);
    expect(
      repo.contentMetrics({ ...base, contentId: 'c1', platform: 'videosite' }).map((r) => r.views),
    ).toEqual([20, 10]);
    expect(repo.contentMetrics({ ...base, platform: 'videosite', limit: 1 }).map((r) => r.views)).toEqual([
      7,
    ]);
    expect(
      repo.contentMetrics({ ...base, latest: true }).map((r) => `${r.content_id}/${r.platform}:${r.views}`),
    ).toEqual(['c2/videosite:7', 'c1/videosite:20', 'c1/altvideo:5']);
    expect(repo.contentMetrics({ ...base, latest: true, end: '2026-03-01' }).map((r) => r.views)).toEqual([
      10,
    ]);
  });
});

describe('analytics query plans (DESIGN §7: an index for every query)', () => {
  const sample: Record<string, unknown> = {
    start: '2025-01-01',
    end: '2026-01-01',
    platform: 'microblog',
    since: '2025-01-01',
    limit: 10,
    postsvcId: 'x',
    contentId: 'c1',
  };
  function plan(db: Db, name: AnalyticsQueryName): string {
    const sql = analyticsQueries[name];
    const params = Object.fromEntries(
      Object.entries(sample).filter(([key]) => new RegExp(`:${key}\\b`).test(sql)),
    );
    return db
      .prepare<Record<string, unknown>, { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(params)
      .map((row) => row.detail)
      .join(' | ');
  }

  it('top posts read post_latest through the index of their order: no sort, never the snapshots', () => {
    const { db } = fresh();
    for (const metric of ['Engagement', 'Likes', 'Shares'] as const) {
      const all = plan(db, `top${metric}All`);
      expect(all).toBe(`SCAN post_latest USING INDEX post_latest_by_${metric.toLowerCase()}`);
      const one = plan(db, `top${metric}One`);
      expect(one).toBe(
        `SEARCH post_latest USING INDEX post_latest_by_platform_${metric.toLowerCase()} (platform=?)`,
      );
    }
    expect(plan(db, 'latestOfPost')).toMatch(
      /SEARCH post_latest USING INDEX sqlite_autoindex_post_latest_1 \(postsvc_id=\?\)/,
    );
  });

  it('social metrics and followers search by key range, sorting at most within a day', () => {
    const { db } = fresh();
    expect(plan(db, 'socialAll')).toMatch(
      /^SEARCH social_metrics USING PRIMARY KEY \(metric_date>\? AND metric_date<\?\)/,
    );
    expect(plan(db, 'socialOne')).toMatch(
      /^SEARCH social_metrics USING (COVERING )?INDEX social_metrics_by_platform \(platform=\? AND metric_date>\? AND metric_date<\?\)$/,
    );
    expect(plan(db, 'followersAll')).toMatch(/^SEARCH follower_counts USING PRIMARY KEY \(date>\?\)/);
    expect(plan(db, 'followersOne')).toMatch(
      /^SEARCH follower_counts USING (COVERING )?INDEX follower_counts_by_platform \(platform=\? AND date>\?\)$/,
    );
  });

  it('content metrics, runs: every query uses an index', () => {
    const { db } = fresh();
    for (const name of Object.keys(analyticsQueries) as AnalyticsQueryName[]) {
      const detail = plan(db, name);
      if (name === 'runs') expect(detail).toMatch(/SCAN collection_runs$/);
      else expect(detail, name).not.toMatch(/SCAN (?!\(subquery|\S+ USING)/);
    }
    expect(plan(db, 'contentAll')).toMatch(/content_metrics_by_time/);
    expect(plan(db, 'contentOfItem')).toMatch(/content_metrics_by_content \(content_id=\?/);
  });
});
