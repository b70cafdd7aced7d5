import { offerOf, type AreaContext, type AreaModule } from '../area.js';
import { Collector } from './collector.js';
import { createAnalyticsRepo, type AnalyticsRepo } from './repo.js';
import { analyticsRoutes } from './routes.js';

export interface AnalyticsTuning {
  /** Per-post analytics calls in flight (default 4). */
  concurrency?: number;
  /** Tests only: a timer shorter than the one hour COLLECT_INTERVAL_HOURS allows. */
  intervalHours?: number;
}

/** A production's thread reads at most this many snapshots of its content (90 days, 6-hourly, several platforms). */
const CONTENT_METRICS_OF_ONE = 10_000;

/** Analytics (spec §1.2, §1.7, §4.2; DESIGN §6.5): the store, the six-hourly collector, content ingest. */
export function analyticsArea(ctx: AreaContext, tuning: AnalyticsTuning = {}): AreaModule {
  let areas: readonly AreaModule[] = [];
  const repo = ctx.repo(createAnalyticsRepo);
  const collector = new Collector({
    repo,
    // The provider client every area shares: one limiter for the profile (DESIGN §5.2).
    source: ctx.peers.postsvc,
    activity: ctx.activity,
    logger: ctx.logger.child({ area: 'analytics' }),
    now: ctx.now,
    intervalHours: tuning.intervalHours ?? ctx.config.collectIntervalHours,
    ...(tuning.concurrency ? { concurrency: tuning.concurrency } : {}),
  });
  const intervalMs = (tuning.intervalHours ?? ctx.config.collectIntervalHours) * 3_600_000;
  // With no successful run yet, the clock runs from this start.
  const since = ctx.now().toISOString();
  ctx.scheduler.add({
    name: 'analytics collection',
    nextInMs: () => collector.timerDueInMs(),
    run: () => collector.onTimer(),
  });

  return {
    name: 'analytics',
    routes: (mount) =>
      analyticsRoutes(mount, ctx, {
        repo,
        collector,
        publishedPosts: async () => (await offerOf(areas, 'publishedPosts')?.()) ?? null,
      }),
    meet(all) {
      areas = all;
    },
    offers: {
      measuredPosts: () => ({ postsvcIds: repo.measuredPostIds(), asOf: repo.lastCollected().posts }),
      latestPostNumbers: (postsvcId) => repo.latestPostNumbers(postsvcId),
      contentMetricsOf: (contentId, since) =>
        repo
          .contentMetrics({ contentId, start: since, latest: false, limit: CONTENT_METRICS_OF_ONE })
          .reverse()
          .map((row) => ({
            platform: row.platform,
            views: row.views,
            watchHours: row.watch_hours,
            likes: row.likes,
            comments: row.comments,
            shares: row.shares,
            collectedAt: row.collected_at,
          })),
      lastCollection() {
        const run = repo.lastRun();
        return run
          ? { id: run.id, status: run.status, startedAt: run.started_at, finishedAt: run.finished_at }
          : null;
      },
    },
    // The last successful collection older than twice the interval (DESIGN §6.9).
    alarms(now) {
      if (!collector.configured) return [];
      const last = repo.lastSuccessfulRun();
      const at = last?.finished_at ?? last?.started_at ?? since;
      if (now.getTime() - Date.parse(at) <= 2 * intervalMs) return [];
      const hours = intervalMs / 3_600_000;
      return [
        {
          id: 'collection',
          kind: 'collection',
          message: last
            ? `analytics: the last successful collection was at ${at}, more than twice the ${hours} h interval ago`
            : `analytics: no successful collection since the bridge started at ${at} (interval ${hours} h)`,
          since: at,
        },
      ];
    },
    start: () => collector.start(),
    stop: () => collector.stop(),
  };
}

export type { ContentMetricWrite } from './repo.js';

/** The analytics tables, for a history written in bulk from outside the collector (the sandbox's demo data). */
export type AnalyticsHistory = Pick<AnalyticsRepo, 'isEmpty' | 'insertHistory'>;

export function analyticsHistory(ctx: AreaContext): AnalyticsHistory {
  return ctx.repo(createAnalyticsRepo);
}
