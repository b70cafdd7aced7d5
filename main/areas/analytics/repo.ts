import type {
  CollectionRun,
  ContentMetricRow,
  FollowerCountRow,
  PlatformOutcome,
  RunStatus,
  RunTrigger,
  SocialMetricRow,
  TopPostMetric,
} from '../../../shared/api/analytics.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../kernel/db.js';

/** What a collection gathered, written in one transaction with the run's outcome. */
export interface SocialMetricWrite extends SocialMetricRow {
  collected_at: string;
}
export interface FollowerCountWrite extends FollowerCountRow {
  collected_at: string;
}
export interface PostSnapshotWrite {
  post_id: string;
  platform: string;
  postsvc_id: string;
  content: string;
  likes: number;
  comments: number;
  shares: number;
  impressions: number;
  collected_at: string;
}
export interface ContentMetricWrite {
  content_id: string;
  content_name: string | null;
  platform: string;
  platform_content_id: string | null;
  views: number;
  watch_hours: number;
  likes: number;
  comments: number;
  shares: number;
  collected_at: string;
  /** When POST /analytics/content-ingest received it; null for rows nothing sent (the sandbox's demo). */
  received_at?: string | null;
}

/** A post as top-posts reads it back: its latest snapshot, exactly as written. */
export type TopPostRecord = PostSnapshotWrite;

export interface RunFinish {
  status: Exclude<RunStatus, 'running'>;
  finished_at: string;
  platforms: string[];
  outcomes: PlatformOutcome[];
  posts_seen: number;
  posts_collected: number;
  posts_failed: number;
  error_code: string | null;
  error: string | null;
}

interface RunRow {
  id: number;
  trigger: RunTrigger;
  status: RunStatus;
  started_at: string;
  finished_at: string | null;
  platforms: string;
  outcomes: string;
  posts_seen: number;
  posts_collected: number;
  posts_failed: number;
  error_code: string | null;
  error: string | null;
}

const toRun = (row: RunRow): CollectionRun => ({
  ...row,
  platforms: JSON.parse(row.platforms) as string[],
  outcomes: JSON.parse(row.outcomes) as PlatformOutcome[],
});

// Text bounds that sort before and after every `YYYY-MM-DD...` value.
const MIN_TEXT = '';
const MAX_TEXT = '\uffff';

const socialColumns = 'metric_date, platform, impressions, engagement, reach, followers';
const topColumns =
  'post_id, platform, postsvc_id, content, likes, comments, shares, impressions, collected_at';
const contentColumns =
  'id, content_id, content_name, platform, platform_content_id, views, watch_hours, likes, comments, shares, collected_at';
const topPostsSql = (metric: TopPostMetric, byPlatform: boolean) =>
  `SELECT ${topColumns} FROM post_latest ${byPlatform ? 'WHERE platform = :platform' : ''}
   ORDER BY ${metric} DESC, post_id LIMIT :limit`;

/**
 * Every query the analytics API runs, exported so a test can check each one's plan (DESIGN §7).
 * Queries that may or may not filter by platform have two forms, so each can use its own index
 * instead of an `(:p IS NULL OR platform = :p)` that defeats the planner. The ORDER BY of each
 * top-posts form is exactly one index's order: no sort, and never a scan of the snapshots.
 */
export const analyticsQueries = {
  socialAll: `SELECT ${socialColumns} FROM social_metrics
    WHERE metric_date >= :start AND metric_date <= :end ORDER BY metric_date DESC, platform`,
  socialOne: `SELECT ${socialColumns} FROM social_metrics
    WHERE platform = :platform AND metric_date >= :start AND metric_date <= :end ORDER BY metric_date DESC`,
  followersAll: `SELECT date, platform, count FROM follower_counts WHERE date >= :since ORDER BY date DESC, platform`,
  followersOne: `SELECT date, platform, count FROM follower_counts
    WHERE platform = :platform AND date >= :since ORDER BY date DESC`,
  topEngagementAll: topPostsSql('engagement', false),
  topLikesAll: topPostsSql('likes', false),
  topSharesAll: topPostsSql('shares', false),
  topEngagementOne: topPostsSql('engagement', true),
  topLikesOne: topPostsSql('likes', true),
  topSharesOne: topPostsSql('shares', true),
  latestOfPost: `SELECT ${topColumns} FROM post_latest WHERE postsvc_id = :postsvcId`,
  contentAll: `SELECT ${contentColumns} FROM content_metrics
    WHERE collected_at >= :start AND collected_at < :end
      AND (:contentId IS NULL OR content_id = :contentId) AND (:platform IS NULL OR platform = :platform)
    ORDER BY collected_at DESC, id DESC LIMIT :limit`,
  contentOfItem: `SELECT ${contentColumns} FROM content_metrics
    WHERE content_id = :contentId AND (:platform IS NULL OR platform = :platform)
      AND collected_at >= :start AND collected_at < :end
    ORDER BY collected_at DESC, id DESC LIMIT :limit`,
  // The latest snapshot of each (content, platform) in the range; ties in time go to the later row.
  contentLatest: `SELECT ${contentColumns} FROM (
      SELECT ${contentColumns},
        row_number() OVER (PARTITION BY content_id, platform ORDER BY collected_at DESC, id DESC) AS rank
      FROM content_metrics
      WHERE collected_at >= :start AND collected_at < :end
        AND (:contentId IS NULL OR content_id = :contentId) AND (:platform IS NULL OR platform = :platform)
    ) WHERE rank = 1
    ORDER BY collected_at DESC, content_id, platform LIMIT :limit`,
  runs: 'SELECT * FROM collection_runs ORDER BY id DESC LIMIT :limit',
  lastSucceeded: `SELECT * FROM collection_runs WHERE status IN ('succeeded', 'partial') ORDER BY id DESC LIMIT 1`,
  running: `SELECT * FROM collection_runs WHERE status = 'running'`,
} as const;
export type AnalyticsQueryName = keyof typeof analyticsQueries;

/** The analytics store. Statements are prepared once; every multi-row write is one transaction. */
export function createAnalyticsRepo(db: Db) {
  const q = analyticsQueries;
  const socialAll = db.prepare<{ start: string; end: string }, SocialMetricRow>(q.socialAll);
  const socialOne = db.prepare<{ start: string; end: string; platform: string }, SocialMetricRow>(
    q.socialOne,
  );
  const latestPostTotals = db.prepare<
    [string],
    { likes: number | null; comments: number | null; shares: number | null }
  >(
    'SELECT SUM(likes) AS likes, SUM(comments) AS comments, SUM(shares) AS shares FROM post_latest WHERE postsvc_id = ?',
  );
  const upsertSocial = db.prepare<SocialMetricWrite>(
    `INSERT INTO social_metrics (metric_date, platform, impressions, engagement, reach, followers, collected_at)
     VALUES (:metric_date, :platform, :impressions, :engagement, :reach, :followers, :collected_at)
     ON CONFLICT (metric_date, platform) DO UPDATE SET
       impressions = excluded.impressions, engagement = excluded.engagement, reach = excluded.reach,
       followers = excluded.followers, collected_at = excluded.collected_at`,
  );
  const socialCount = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM social_metrics');

  const followersAll = db.prepare<{ since: string }, FollowerCountRow>(q.followersAll);
  const followersOne = db.prepare<{ since: string; platform: string }, FollowerCountRow>(q.followersOne);
  const upsertFollowers = db.prepare<FollowerCountWrite>(
    `INSERT INTO follower_counts (date, platform, count, collected_at)
     VALUES (:date, :platform, :count, :collected_at)
     ON CONFLICT (date, platform) DO UPDATE SET count = excluded.count, collected_at = excluded.collected_at`,
  );

  const insertSnapshot = db.prepare<PostSnapshotWrite & { run_id: number | null }>(
    `INSERT INTO post_performance
       (post_id, platform, postsvc_id, content, likes, comments, shares, impressions, collected_at, run_id)
     VALUES (:post_id, :platform, :postsvc_id, :content, :likes, :comments, :shares, :impressions,
       :collected_at, :run_id)`,
  );
  type TopStatement = Statement<{ limit: number; platform?: string }, TopPostRecord>;
  const top: Record<TopPostMetric, { all: TopStatement; one: TopStatement }> = {
    engagement: { all: db.prepare(q.topEngagementAll), one: db.prepare(q.topEngagementOne) },
    likes: { all: db.prepare(q.topLikesAll), one: db.prepare(q.topLikesOne) },
    shares: { all: db.prepare(q.topSharesAll), one: db.prepare(q.topSharesOne) },
  };
  const latestOfPost = db.prepare<{ postsvcId: string }, TopPostRecord>(q.latestOfPost);

  const insertContent = db.prepare<ContentMetricWrite & { received_at: string | null }>(
    `INSERT INTO content_metrics (content_id, content_name, platform, platform_content_id, views, watch_hours,
       likes, comments, shares, collected_at, received_at)
     VALUES (:content_id, :content_name, :platform, :platform_content_id, :views, :watch_hours, :likes,
       :comments, :shares, :collected_at, :received_at)`,
  );
  type ContentFilter = {
    contentId: string | null;
    platform: string | null;
    start: string;
    end: string;
    limit: number;
  };
  const contentAll = db.prepare<ContentFilter, ContentMetricRow>(q.contentAll);
  const contentOfItem = db.prepare<ContentFilter, ContentMetricRow>(q.contentOfItem);
  const contentLatest = db.prepare<ContentFilter, ContentMetricRow>(q.contentLatest);
  const contentCount = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM content_metrics');

  const startRun = db.prepare<{ trigger: RunTrigger; started_at: string; platforms: string }>(
    `INSERT INTO collection_runs (trigger, status, started_at, platforms)
     VALUES (:trigger, 'running', :started_at, :platforms)`,
  );
  const finishRun = db.prepare<
    Omit<RunFinish, 'platforms' | 'outcomes'> & { id: number; platforms: string; outcomes: string }
  >(
    `UPDATE collection_runs SET status = :status, finished_at = :finished_at, platforms = :platforms,
       outcomes = :outcomes, posts_seen = :posts_seen, posts_collected = :posts_collected,
       posts_failed = :posts_failed, error_code = :error_code, error = :error
     WHERE id = :id AND status = 'running'`,
  );
  const listRuns = db.prepare<{ limit: number }, RunRow>(q.runs);
  const getRun = db.prepare<[number], RunRow>('SELECT * FROM collection_runs WHERE id = ?');
  const lastSucceeded = db.prepare<[], RunRow>(q.lastSucceeded);
  const lastCollected = db.prepare<
    [],
    { social: string | null; followers: string | null; posts: string | null; content: string | null }
  >(
    `SELECT (SELECT MAX(collected_at) FROM social_metrics) AS social,
            (SELECT MAX(collected_at) FROM follower_counts) AS followers,
            (SELECT MAX(collected_at) FROM post_performance) AS posts,
            (SELECT MAX(collected_at) FROM content_metrics) AS content`,
  );
  const lastReceived = db.prepare<[], { at: string | null }>(
    'SELECT MAX(received_at) AS at FROM content_metrics',
  );
  const measuredIds = db.prepare<[], { postsvc_id: string }>('SELECT DISTINCT postsvc_id FROM post_latest');
  const running = db.prepare<[], RunRow>(q.running);
  const abandonRun = db.prepare<{ id: number; finished_at: string; error: string }>(
    `UPDATE collection_runs SET status = 'failed', finished_at = :finished_at, error_code = 'COLLECTION_FAILED',
       error = :error WHERE id = :id AND status = 'running'`,
  );

  const writeRun = db.transaction(
    (
      runId: number,
      data: { social: SocialMetricWrite[]; followers: FollowerCountWrite[]; posts: PostSnapshotWrite[] },
      finish: RunFinish,
    ) => {
      for (const row of data.social) upsertSocial.run(row);
      for (const row of data.followers) upsertFollowers.run(row);
      for (const row of data.posts) insertSnapshot.run({ ...row, run_id: runId });
      finishRun.run({
        ...finish,
        id: runId,
        platforms: JSON.stringify(finish.platforms),
        outcomes: JSON.stringify(finish.outcomes),
      });
    },
  );

  return {
    socialMetrics(filter: { start?: string; end?: string; platform?: string }): SocialMetricRow[] {
      const range = { start: filter.start ?? MIN_TEXT, end: filter.end ?? MAX_TEXT };
      return filter.platform ? socialOne.all({ ...range, platform: filter.platform }) : socialAll.all(range);
    },
    followers(filter: { since: string; platform?: string }): FollowerCountRow[] {
      return filter.platform
        ? followersOne.all({ since: filter.since, platform: filter.platform })
        : followersAll.all({ since: filter.since });
    },
    topPosts(filter: { metric: TopPostMetric; limit: number; platform?: string }): TopPostRecord[] {
      const statements = top[filter.metric];
      return filter.platform
        ? statements.one.all({ limit: filter.limit, platform: filter.platform })
        : statements.all.all({ limit: filter.limit });
    },
    /** The latest snapshot per platform of one provider post (for the posting area's history). */
    latestOfPost(postsvcId: string): TopPostRecord[] {
      return latestOfPost.all({ postsvcId });
    },
    insertContentMetric(row: ContentMetricWrite): number {
      return Number(insertContent.run({ ...row, received_at: row.received_at ?? null }).lastInsertRowid);
    },
    contentMetrics(filter: {
      contentId?: string;
      platform?: string;
      /** Inclusive UTC day. */
      start?: string;
      /** Inclusive UTC day. */
      end?: string;
      latest: boolean;
      limit: number;
    }): ContentMetricRow[] {
      const params: ContentFilter = {
        contentId: filter.contentId ?? null,
        platform: filter.platform ?? null,
        start: filter.start ?? MIN_TEXT,
        // collected_at is a full timestamp: everything on the end day sorts below "<end>T\uffff".
        end: filter.end ? `${filter.end}T${MAX_TEXT}` : MAX_TEXT,
        limit: filter.limit,
      };
      if (filter.latest) return contentLatest.all(params);
      return filter.contentId ? contentOfItem.all(params) : contentAll.all(params);
    },

    startRun(trigger: RunTrigger, startedAt: string, platforms: readonly string[]): number {
      return Number(
        startRun.run({ trigger, started_at: startedAt, platforms: JSON.stringify(platforms) })
          .lastInsertRowid,
      );
    },
    /** Everything a run gathered and its outcome, atomically: a killed bridge leaves neither. */
    writeRun(
      runId: number,
      data: { social: SocialMetricWrite[]; followers: FollowerCountWrite[]; posts: PostSnapshotWrite[] },
      finish: RunFinish,
    ): void {
      writeRun(runId, data, finish);
    },
    failRun(runId: number, finish: RunFinish): void {
      writeRun(runId, { social: [], followers: [], posts: [] }, finish);
    },
    run(id: number): CollectionRun | null {
      const row = getRun.get(id);
      return row ? toRun(row) : null;
    },
    runs(limit: number): CollectionRun[] {
      return listRuns.all({ limit }).map(toRun);
    },
    /** When each metric's table was last written. */
    lastCollected: () => lastCollected.get()!,
    /** When content metrics last arrived by the ingest route; null: never. */
    lastContentReceived: () => lastReceived.get()?.at ?? null,
    /** Every provider post a collection measured (each is one the provider reported published). */
    measuredPostIds: () => measuredIds.all().map((row) => row.postsvc_id),
    lastSuccessfulRun(): CollectionRun | null {
      const row = lastSucceeded.get();
      return row ? toRun(row) : null;
    },
    lastRun(): CollectionRun | null {
      const row = listRuns.get({ limit: 1 });
      return row ? toRun(row) : null;
    },
    /** Runs left `running` by a bridge that stopped mid-run: they wrote nothing; mark them failed. */
    abandonRunning(at: string): CollectionRun[] {
      const left = running.all().map(toRun);
      for (const run of left) {
        abandonRun.run({
          id: run.id,
          finished_at: at,
          error: 'interrupted: the bridge stopped before the run finished (nothing was written)',
        });
      }
      return left;
    },

    isEmpty(): { social: boolean; content: boolean } {
      return { social: (socialCount.get()?.n ?? 0) === 0, content: (contentCount.get()?.n ?? 0) === 0 };
    },
    /** A provider post's latest numbers summed over its platforms (posting's history view). */
    latestPostNumbers(postsvcId: string): { likes: number; comments: number; shares: number } {
      const row = latestPostTotals.get(postsvcId);
      return { likes: row?.likes ?? 0, comments: row?.comments ?? 0, shares: row?.shares ?? 0 };
    },
    /** Bulk history (sandbox demo data, benchmarks): one transaction. */
    insertHistory: db.transaction(
      (data: {
        social?: Iterable<SocialMetricWrite>;
        followers?: Iterable<FollowerCountWrite>;
        posts?: Iterable<PostSnapshotWrite>;
        content?: Iterable<ContentMetricWrite>;
      }) => {
        for (const row of data.social ?? []) upsertSocial.run(row);
        for (const row of data.followers ?? []) upsertFollowers.run(row);
        for (const row of data.posts ?? []) insertSnapshot.run({ ...row, run_id: null });
        for (const row of data.content ?? [])
          insertContent.run({ ...row, received_at: row.received_at ?? null });
      },
    ),
  };
}
export type AnalyticsRepo = ReturnType<typeof createAnalyticsRepo>;
