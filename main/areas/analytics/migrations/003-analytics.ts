import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Analytics (spec §2.7, DESIGN §6.5, §7). Days are UTC `YYYY-MM-DD`, times ISO 8601 (UTC), so
 * text order is time order. Every query the API runs has an index (see analytics-repo.ts and
 * the EXPLAIN QUERY PLAN test).
 */
export const analytics: Migration = {
  version: 3,
  name: 'analytics',
  sql: `
    -- One row per (day, platform); a later collection that day overwrites it.
    CREATE TABLE social_metrics (
      metric_date TEXT NOT NULL,
      platform TEXT NOT NULL,
      impressions INTEGER NOT NULL,
      engagement INTEGER NOT NULL,
      reach INTEGER NOT NULL,
      followers INTEGER NOT NULL,
      collected_at TEXT NOT NULL,
      PRIMARY KEY (metric_date, platform)
    ) WITHOUT ROWID;
    CREATE INDEX social_metrics_by_platform ON social_metrics (platform, metric_date);

    -- One row per (day, platform); a later collection that day overwrites count.
    CREATE TABLE follower_counts (
      date TEXT NOT NULL,
      platform TEXT NOT NULL,
      count INTEGER NOT NULL,
      collected_at TEXT NOT NULL,
      PRIMARY KEY (date, platform)
    ) WITHOUT ROWID;
    CREATE INDEX follower_counts_by_platform ON follower_counts (platform, date);

    -- Every snapshot of every post on every platform it went to.
    -- post_id: the platform's id of the post; postsvc_id: the provider's post id.
    CREATE TABLE post_performance (
      id INTEGER PRIMARY KEY,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      postsvc_id TEXT NOT NULL,
      content TEXT NOT NULL,
      likes INTEGER NOT NULL,
      comments INTEGER NOT NULL,
      shares INTEGER NOT NULL,
      impressions INTEGER NOT NULL,
      collected_at TEXT NOT NULL,
      run_id INTEGER
    );
    CREATE INDEX post_performance_by_post ON post_performance (postsvc_id, platform, collected_at);

    -- The latest snapshot of each post on each platform, kept by the trigger below, so
    -- top-posts reads one row per post from an index instead of scanning every snapshot.
    CREATE TABLE post_latest (
      postsvc_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      post_id TEXT NOT NULL,
      content TEXT NOT NULL,
      likes INTEGER NOT NULL,
      comments INTEGER NOT NULL,
      shares INTEGER NOT NULL,
      impressions INTEGER NOT NULL,
      snapshot_id INTEGER NOT NULL,
      collected_at TEXT NOT NULL,
      engagement INTEGER GENERATED ALWAYS AS (likes + comments + shares) VIRTUAL,
      PRIMARY KEY (postsvc_id, platform)
    );
    CREATE INDEX post_latest_by_engagement ON post_latest (engagement DESC, post_id);
    CREATE INDEX post_latest_by_likes ON post_latest (likes DESC, post_id);
    CREATE INDEX post_latest_by_shares ON post_latest (shares DESC, post_id);
    CREATE INDEX post_latest_by_platform_engagement ON post_latest (platform, engagement DESC, post_id);
    CREATE INDEX post_latest_by_platform_likes ON post_latest (platform, likes DESC, post_id);
    CREATE INDEX post_latest_by_platform_shares ON post_latest (platform, shares DESC, post_id);

    CREATE TRIGGER post_performance_keeps_latest AFTER INSERT ON post_performance
    BEGIN
      INSERT INTO post_latest
        (postsvc_id, platform, post_id, content, likes, comments, shares, impressions, snapshot_id, collected_at)
      VALUES
        (NEW.postsvc_id, NEW.platform, NEW.post_id, NEW.content, NEW.likes, NEW.comments, NEW.shares,
         NEW.impressions, NEW.id, NEW.collected_at)
      ON CONFLICT (postsvc_id, platform) DO UPDATE SET
        post_id = excluded.post_id,
        content = excluded.content,
        likes = excluded.likes,
        comments = excluded.comments,
        shares = excluded.shares,
        impressions = excluded.impressions,
        snapshot_id = excluded.snapshot_id,
        collected_at = excluded.collected_at
      WHERE excluded.collected_at >= post_latest.collected_at;
    END;

    -- Snapshots of a content item's numbers on a video platform (POST /analytics/content-ingest).
    CREATE TABLE content_metrics (
      id INTEGER PRIMARY KEY,
      content_id TEXT NOT NULL,
      content_name TEXT,
      platform TEXT NOT NULL,
      platform_content_id TEXT,
      views INTEGER NOT NULL,
      watch_hours REAL NOT NULL,
      likes INTEGER NOT NULL,
      comments INTEGER NOT NULL,
      shares INTEGER NOT NULL,
      collected_at TEXT NOT NULL
    );
    CREATE INDEX content_metrics_by_time ON content_metrics (collected_at);
    CREATE INDEX content_metrics_by_content ON content_metrics (content_id, platform, collected_at);
    CREATE INDEX content_metrics_by_platform ON content_metrics (platform, collected_at);

    -- One row per collection run; outcomes is a JSON array of per-platform results.
    CREATE TABLE collection_runs (
      id INTEGER PRIMARY KEY,
      trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'timer', 'catch-up')),
      status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'partial', 'failed')),
      started_at TEXT NOT NULL,
      finished_at TEXT,
      platforms TEXT NOT NULL,
      outcomes TEXT NOT NULL DEFAULT '[]',
      posts_seen INTEGER NOT NULL DEFAULT 0,
      posts_collected INTEGER NOT NULL DEFAULT 0,
      posts_failed INTEGER NOT NULL DEFAULT 0,
      error_code TEXT,
      error TEXT
    );
    CREATE INDEX collection_runs_by_status ON collection_runs (status, id);
  `,
};
