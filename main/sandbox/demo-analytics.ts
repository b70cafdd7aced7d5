import { createHash } from 'node:crypto';
import { platformKeys } from '../../shared/platforms.js';
import type { AnalyticsHistory, ContentMetricWrite } from '../areas/analytics/module.js';
import type { SandboxPeers } from './index.js';
import { socialMetricsHistory } from './postsvc/index.js';

const DAY_MS = 86_400_000;
const DEMO_DAYS = 90;

/** A number in [0, 1) from a text: the same text always gives the same number. */
function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Sandbox mode only (DESIGN §8): 90 days of daily social metrics and follower counts from the
 * simulated provider's own model (so the first collection continues the same curves), and
 * content metrics for the demo show's published episodes. Only into empty tables;
 * deterministic for a given `now`. Post performance comes from the first (catch-up) collection
 * against the simulated provider's post history.
 */
export function seedDemoAnalytics(
  repo: AnalyticsHistory,
  crm: SandboxPeers['crm'],
  now: Date,
): { socialRows: number; contentRows: number } {
  const empty = repo.isEmpty();
  let socialRows = 0;
  let contentRows = 0;
  if (empty.social) {
    // Every platform the collector will read from the simulated provider (all seven are linked).
    const history = socialMetricsHistory(platformKeys, now, DEMO_DAYS);
    const collectedAt = (day: string) => `${day}T23:59:00.000Z`;
    repo.insertHistory({
      social: history.map((row) => ({ ...row, collected_at: collectedAt(row.metric_date) })),
      followers: history.map((row) => ({
        date: row.metric_date,
        platform: row.platform,
        count: row.followers,
        collected_at: collectedAt(row.metric_date),
      })),
    });
    socialRows = history.length;
  }
  if (empty.content) {
    const content = demoContentMetrics(crm, now);
    repo.insertHistory({ content });
    contentRows = content.length;
  }
  return { socialRows, contentRows };
}

/** Weekly snapshots of views, watch hours and reactions of each published episode on its video platforms. */
function demoContentMetrics(crm: SandboxPeers['crm'], now: Date): ContentMetricWrite[] {
  const rows: ContentMetricWrite[] = [];
  const oldest = now.getTime() - DEMO_DAYS * DAY_MS;
  for (const record of crm.list('ContentProduction')) {
    if (record.stage !== 'Published') continue;
    const name = typeof record.name === 'string' ? record.name : null;
    const published = Date.parse(`${String(record.scheduledDate ?? '').replace(' ', 'T')}Z`);
    if (Number.isNaN(published)) continue;
    const platforms = (Array.isArray(record.platforms) ? record.platforms : [])
      .filter((p): p is string => typeof p === 'string')
      .map((p) => p.toLowerCase());
    for (const platform of platforms) {
      const key = `${name ?? record.id}|${platform}`;
      const ceiling = 2_000 + Math.floor(unit(`${key}|views`) * 40_000);
      const minutesPerView = 6 + unit(`${key}|minutes`) * 20;
      const likeRate = 0.02 + unit(`${key}|likes`) * 0.05;
      for (let at = Math.max(published + DAY_MS, oldest); at <= now.getTime(); at += 7 * DAY_MS) {
        const days = (at - published) / DAY_MS;
        const views = Math.floor(ceiling * (1 - Math.exp(-days / 10)));
        const likes = Math.floor(views * likeRate);
        rows.push({
          content_id: record.id,
          content_name: name,
          platform,
          platform_content_id: `${platform}-${record.id.slice(-8)}`,
          views,
          watch_hours: Math.round(((views * minutesPerView) / 60) * 10) / 10,
          likes,
          comments: Math.floor(likes * (0.08 + unit(`${key}|comments`) * 0.2)),
          shares: Math.floor(likes * (0.05 + unit(`${key}|shares`) * 0.2)),
          collected_at: `${new Date(at).toISOString().slice(0, 10)}T06:00:00.000Z`,
        });
      }
    }
  }
  return rows;
}
