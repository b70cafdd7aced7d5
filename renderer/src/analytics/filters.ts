import { topPostMetrics, type TopPostMetric } from '../../../shared/api/analytics.js';
import { calendarDate } from '../../../shared/api/contract.js';
import { platformKeys, type PlatformKey } from '../../../shared/platforms.js';

/**
 * The Analytics page's filters, kept in the search params of the hash route
 * (`#/analytics?range=1y&platform=microblog&metric=likes`) so a view can be bookmarked and
 * shared. Only values that differ from the defaults are written.
 */
export const rangePresets = [
  { key: '30d', label: '30 days', days: 30 },
  { key: '90d', label: '90 days', days: 90 },
  { key: '1y', label: '1 year', days: 365 },
  { key: '3y', label: '3 years', days: 3 * 365 },
] as const;
export type RangePreset = (typeof rangePresets)[number]['key'];
export type RangeKey = RangePreset | 'custom';

export interface AnalyticsFilters {
  range: RangeKey;
  /** Inclusive UTC days. */
  start: string;
  end: string;
  platform: PlatformKey | null;
  metric: TopPostMetric;
}

const DEFAULT_RANGE: RangePreset = '30d';
const DEFAULT_METRIC: TopPostMetric = 'engagement';

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Days from start to end, both included. */
export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

const isDay = (value: string | null): value is string =>
  value !== null && calendarDate.safeParse(value).success;

function presetRange(key: RangePreset, today: string): { start: string; end: string } {
  const preset = rangePresets.find((p) => p.key === key) ?? rangePresets[0];
  return { start: addDays(today, -(preset.days - 1)), end: today };
}

/** The filters a URL asks for; anything missing or invalid falls back to the defaults. */
export function readFilters(params: URLSearchParams, today: string): AnalyticsFilters {
  const platformParam = params.get('platform');
  const platform = platformKeys.find((key) => key === platformParam) ?? null;
  const metricParam = params.get('metric');
  const metric = topPostMetrics.find((m) => m === metricParam) ?? DEFAULT_METRIC;
  const from = params.get('from');
  const to = params.get('to');
  if (params.get('range') === 'custom' && isDay(from) && isDay(to) && from <= to) {
    return { range: 'custom', start: from, end: to, platform, metric };
  }
  const rangeParam = params.get('range');
  const range = rangePresets.find((p) => p.key === rangeParam)?.key ?? DEFAULT_RANGE;
  return { range, ...presetRange(range, today), platform, metric };
}

export type FilterChange =
  | { range: RangePreset }
  | { start: string; end: string }
  | { platform: PlatformKey | null }
  | { metric: TopPostMetric };

/** New search params with one change applied, other params (of other widgets) kept. */
export function applyFilterChange(params: URLSearchParams, change: FilterChange): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string | null, fallback?: string) => {
    if (value === null || value === fallback) next.delete(name);
    else next.set(name, value);
  };
  if ('range' in change) {
    set('range', change.range, DEFAULT_RANGE);
    next.delete('from');
    next.delete('to');
  } else if ('start' in change) {
    next.set('range', 'custom');
    next.set('from', change.start);
    next.set('to', change.end);
  } else if ('platform' in change) {
    set('platform', change.platform);
  } else {
    set('metric', change.metric, DEFAULT_METRIC);
  }
  return next;
}
