import {
  getContentMetrics,
  getFollowers,
  getSocialMetrics,
  getTopPosts,
  ingestContentMetrics,
  listCollectionRuns,
  startCollection,
  type PublishedPosts,
} from '../../../shared/api/analytics.js';
import { AppError } from '../../kernel/app-error.js';
import type { AreaContext, Mount } from '../area.js';
import type { Collector } from './collector.js';
import { addDays, parseDateRange, utcDay } from './dates.js';
import { toTopPostRow } from './ranking.js';
import { analyticsReports } from './reports.js';
import type { AnalyticsRepo } from './repo.js';

function dateRange(query: { startDate?: string | undefined; endDate?: string | undefined }) {
  const range = parseDateRange(query);
  if (!range.ok) throw AppError.invalidDate(range.message);
  return range;
}

export function analyticsRoutes(
  mount: Mount,
  ctx: AreaContext,
  {
    repo,
    collector,
    publishedPosts,
  }: {
    repo: AnalyticsRepo;
    collector: Collector;
    /** Posting's published posts (issue #41.4); null when posting does not run or cannot say. */
    publishedPosts: () => Promise<PublishedPosts | null>;
  },
): void {
  const reports = analyticsReports(repo);
  mount(getSocialMetrics, ({ query }) => {
    const { start, end } = dateRange(query);
    const data = reports.socialMetrics({
      ...(start ? { start } : {}),
      ...(end ? { end } : {}),
      ...(query.platform ? { platform: query.platform } : {}),
    });
    return { success: true, data };
  });

  mount(getFollowers, ({ query }) => {
    const since = addDays(utcDay(ctx.now()), -(query.days - 1));
    const data = reports.followers({ since, ...(query.platform ? { platform: query.platform } : {}) });
    return { success: true, data };
  });

  mount(getTopPosts, ({ query }) => {
    const records = reports.topPosts({
      metric: query.metric,
      limit: query.limit,
      ...(query.platform ? { platform: query.platform } : {}),
    });
    return { success: true, data: records.map(toTopPostRow) };
  });

  mount(startCollection, () => {
    const { runId, platforms } = collector.collect('manual');
    return {
      success: true,
      message: `collection run ${runId} started; progress on /events (collection.progress)`,
      platforms,
      runId,
    };
  });

  mount(ingestContentMetrics, ({ body }) => {
    const id = reports.insertContentMetric({
      content_id: body.contentId,
      content_name: body.contentName ?? null,
      platform: body.platform,
      platform_content_id: body.platformContentId ?? null,
      views: body.views,
      watch_hours: body.watchHours,
      likes: body.likes,
      comments: body.comments,
      shares: body.shares,
      collected_at: body.collectedAt ? new Date(body.collectedAt).toISOString() : ctx.now().toISOString(),
      received_at: ctx.now().toISOString(),
    });
    return {
      success: true,
      message: `content metrics stored for ${body.contentId} on ${body.platform}`,
      id,
    };
  });

  mount(getContentMetrics, ({ query }) => {
    const { start, end } = dateRange(query);
    const data = reports.contentMetrics({
      ...(query.contentId ? { contentId: query.contentId } : {}),
      ...(query.platform ? { platform: query.platform } : {}),
      ...(start ? { start } : {}),
      ...(end ? { end } : {}),
      latest: query.latest === 'true' || query.latest === '1',
      limit: query.limit,
    });
    return { success: true, data };
  });

  mount(listCollectionRuns, async ({ query }) => ({
    success: true,
    data: reports.runs(query.limit),
    lastCollected: reports.lastCollected(),
    contentReceived: reports.lastContentReceived(),
    published: await publishedPosts(),
  }));
}
