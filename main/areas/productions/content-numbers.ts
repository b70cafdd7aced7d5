import type { ContentMetricPoint, ProductionThread } from '../../../shared/api/productions.js';

/**
 * A production's collected metrics (oldest first) as its thread shows them: each platform's latest
 * snapshot, and its total views as of each day (each platform's last snapshot that day, summed).
 */
export function contentNumbers(points: readonly ContentMetricPoint[]): ProductionThread['analytics'] {
  const latest = new Map<string, ContentMetricPoint>();
  const days = new Map<string, Map<string, number>>();
  for (const point of points) {
    latest.set(point.platform, point);
    const day = point.collectedAt.slice(0, 10);
    const platforms = days.get(day) ?? new Map<string, number>();
    platforms.set(point.platform, point.views);
    days.set(day, platforms);
  }
  // A platform not collected on a day keeps its last known total.
  const running = new Map<string, number>();
  const viewsByDay = [...days.keys()].sort().map((day) => {
    for (const [platform, views] of days.get(day)!) running.set(platform, views);
    return { day, views: [...running.values()].reduce((sum, views) => sum + views, 0) };
  });
  return { latest: [...latest.values()].sort((a, b) => a.platform.localeCompare(b.platform)), viewsByDay };
}
