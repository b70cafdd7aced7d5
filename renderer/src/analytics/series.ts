import { platformKeys } from '../../../shared/platforms.js';
import { addDays, daysBetween } from './filters.js';

/**
 * Chart data from the API's rows: one point per day, or per week on long ranges (three years
 * stay ~156 points a line instead of ~1,100), one numeric field per platform.
 */
export type Granularity = 'day' | 'week';
export type ChartPoint = { date: string } & Record<string, number | string>;

/** Ranges longer than this are drawn weekly. */
export const DAILY_UP_TO_DAYS = 120;

export function granularityFor(start: string, end: string): Granularity {
  return daysBetween(start, end) > DAILY_UP_TO_DAYS ? 'week' : 'day';
}

/** The Monday (UTC) of the week a day falls in. */
export function weekOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** Platforms present in rows, in the platform table's order (unknown keys last, A–Z). */
export function platformsIn(rows: readonly { platform: string }[]): string[] {
  const present = new Set(rows.map((row) => row.platform));
  const known: string[] = platformKeys.filter((key) => present.has(key));
  const other = [...present].filter((key) => !known.includes(key)).sort();
  return [...known, ...other];
}

/** `{date, platform, value}` rows (one per period and platform) as chart points sorted by date. */
export function pivot<Row extends { platform: string }>(
  rows: readonly Row[],
  date: (row: Row) => string,
  value: (row: Row) => number,
): ChartPoint[] {
  const points = new Map<string, ChartPoint>();
  for (const row of rows) {
    const key = date(row);
    const point = points.get(key) ?? { date: key };
    point[row.platform] = value(row);
    points.set(key, point);
  }
  return [...points.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

interface SocialRow {
  metric_date: string;
  platform: string;
  impressions: number;
  engagement: number;
  reach: number;
  followers: number;
}

/** Social rows per period: impressions, engagement and reach add up; followers is the period's last day. */
export function aggregateSocial<Row extends SocialRow>(
  rows: readonly Row[],
  granularity: Granularity,
): SocialRow[] {
  if (granularity === 'day') return [...rows];
  const out = new Map<string, SocialRow & { lastDay: string }>();
  for (const row of rows) {
    const period = weekOf(row.metric_date);
    const key = `${period}|${row.platform}`;
    const current = out.get(key);
    if (!current) {
      out.set(key, { ...row, metric_date: period, lastDay: row.metric_date });
      continue;
    }
    current.impressions += row.impressions;
    current.engagement += row.engagement;
    current.reach += row.reach;
    if (row.metric_date >= current.lastDay) {
      current.lastDay = row.metric_date;
      current.followers = row.followers;
    }
  }
  return [...out.values()].map(({ lastDay: _lastDay, ...row }) => row);
}

/** Follower counts per period: the count of the period's last day. */
export function aggregateFollowers<Row extends { date: string; platform: string; count: number }>(
  rows: readonly Row[],
  granularity: Granularity,
): { date: string; platform: string; count: number }[] {
  if (granularity === 'day') return rows.map(({ date, platform, count }) => ({ date, platform, count }));
  const out = new Map<string, { date: string; platform: string; count: number; lastDay: string }>();
  for (const row of rows) {
    const period = weekOf(row.date);
    const key = `${period}|${row.platform}`;
    const current = out.get(key);
    if (!current || row.date >= current.lastDay) {
      out.set(key, { date: period, platform: row.platform, count: row.count, lastDay: row.date });
    }
  }
  return [...out.values()].map(({ lastDay: _lastDay, ...row }) => row);
}

/** The key under which a change point keeps the platform's own count (for the tooltip). */
export const countKey = (platform: string): string => `${platform}:count`;

/**
 * Follower counts as the change since each platform's first count in the range: counts of
 * 120,000 and 3,000 that each grow by a few hundred are flat lines on one absolute axis, and
 * visible growth as changes from zero. Each point keeps the count itself under countKey().
 */
export function changePoints(
  rows: readonly { date: string; platform: string; count: number }[],
): ChartPoint[] {
  const sorted = [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const baseline = new Map<string, number>();
  const points = new Map<string, ChartPoint>();
  for (const row of sorted) {
    const base = baseline.get(row.platform) ?? row.count;
    baseline.set(row.platform, base);
    const point = points.get(row.date) ?? { date: row.date };
    point[row.platform] = row.count - base;
    point[countKey(row.platform)] = row.count;
    points.set(row.date, point);
  }
  return [...points.values()];
}
