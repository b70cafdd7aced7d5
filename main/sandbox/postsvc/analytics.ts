import { unitHash } from '../common/prng.js';
import type { ProviderPlatform } from './platforms.js';

/**
 * The provider's numbers: deterministic functions of the platform (or post id) and the
 * time, so the same question gives the same answer, and later answers are bigger (accounts
 * grow, posts collect views). No stored state: history and live answers always agree.
 */

const DAY_MS = 86_400_000;
// Accounts "exist" from here; growth is counted in days since.
const ANCHOR_MS = Date.UTC(2024, 0, 1);
// Sunday first, as getUTCDay() counts.
const WEEKDAY_FACTOR = [0.8, 1.05, 1.1, 1.1, 1.05, 0.95, 0.85] as const;

export interface SocialAnalytics {
  followers: number;
  following: number;
  impressions: number;
  engagement: number;
  reach: number;
  /** Percent, 2 decimals. */
  engagementRate: number;
}

export interface DailySocialMetrics {
  impressions: number;
  engagement: number;
  reach: number;
  followers: number;
}

export interface PostAnalytics {
  likes: number;
  comments: number;
  shares: number;
  impressions: number;
  clicks: number;
}

function profile(platform: string) {
  return {
    baseFollowers: 1_500 + Math.floor(unitHash(`${platform}|base`) * 30_000),
    dailyGrowth: 4 + Math.floor(unitHash(`${platform}|growth`) * 40),
    impressionsPerFollower: 0.6 + unitHash(`${platform}|ipf`) * 1.8,
    engagementRate: 0.015 + unitHash(`${platform}|er`) * 0.05,
    following: 150 + Math.floor(unitHash(`${platform}|following`) * 600),
  };
}

const dayIndex = (date: Date): number => Math.floor((date.getTime() - ANCHOR_MS) / DAY_MS);

function followersOn(platform: string, day: number): number {
  const p = profile(platform);
  const jitter = Math.floor((unitHash(`${platform}|${day}|followers`) - 0.5) * p.dailyGrowth * 0.6);
  return Math.max(0, p.baseFollowers + p.dailyGrowth * Math.max(0, day) + jitter);
}

/** A whole UTC day's totals (what the bridge's 90-day history is made of). */
export function dailySocialMetrics(platform: ProviderPlatform, date: Date): DailySocialMetrics {
  const p = profile(platform);
  const day = dayIndex(date);
  const followers = followersOn(platform, day);
  const weekday = WEEKDAY_FACTOR[date.getUTCDay()] ?? 1;
  const impressions = Math.round(
    followers * p.impressionsPerFollower * weekday * (0.75 + unitHash(`${platform}|${day}|imp`) * 0.5),
  );
  return {
    impressions,
    reach: Math.round(impressions * (0.55 + unitHash(`${platform}|${day}|reach`) * 0.25)),
    engagement: Math.round(impressions * p.engagementRate * (0.8 + unitHash(`${platform}|${day}|eng`) * 0.4)),
    followers,
  };
}

/** What `/analytics/social` answers at `at`: today so far (growing through the day) and followers now. */
export function socialAnalytics(platform: ProviderPlatform, at: Date): SocialAnalytics {
  const day = dailySocialMetrics(platform, at);
  const elapsed = Math.max(0.04, (at.getTime() % DAY_MS) / DAY_MS);
  const impressions = Math.round(day.impressions * elapsed);
  const engagement = Math.round(day.engagement * elapsed);
  return {
    followers: day.followers,
    following: profile(platform).following + Math.floor(Math.max(0, dayIndex(at)) / 30),
    impressions,
    engagement,
    reach: Math.round(day.reach * elapsed),
    engagementRate: impressions === 0 ? 0 : Math.round((engagement / impressions) * 10_000) / 100,
  };
}

/** A published post's numbers `at`: they rise quickly after publishing, then level off. */
export function postAnalytics(
  postId: string,
  platform: ProviderPlatform,
  publishedAt: Date,
  at: Date,
): PostAnalytics {
  const key = `${postId}|${platform}`;
  const hours = Math.max(0, (at.getTime() - publishedAt.getTime()) / 3_600_000);
  const ceiling = 200 + Math.floor(unitHash(`${key}|ceiling`) ** 2 * 25_000);
  const impressions = Math.floor(ceiling * (1 - Math.exp(-hours / 20)));
  const likes = Math.floor(impressions * (0.01 + unitHash(`${key}|likes`) * 0.05));
  return {
    impressions,
    likes,
    comments: Math.floor(likes * (0.04 + unitHash(`${key}|comments`) * 0.16)),
    shares: Math.floor(likes * (0.03 + unitHash(`${key}|shares`) * 0.25)),
    clicks: Math.floor(impressions * (0.004 + unitHash(`${key}|clicks`) * 0.025)),
  };
}

export interface SocialMetricsRow {
  metric_date: string;
  platform: ProviderPlatform;
  impressions: number;
  engagement: number;
  reach: number;
  followers: number;
}

/**
 * `days` complete UTC days before `now` (oldest first), per platform, from the same model
 * the live endpoint uses: for seeding a store with history (DESIGN §8 "90 days of metrics").
 */
export function socialMetricsHistory(
  platforms: readonly ProviderPlatform[],
  now: Date,
  days = 90,
): SocialMetricsRow[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const rows: SocialMetricsRow[] = [];
  for (let back = days; back >= 1; back--) {
    const date = new Date(today - back * DAY_MS);
    for (const platform of platforms) {
      rows.push({
        metric_date: date.toISOString().slice(0, 10),
        platform,
        ...dailySocialMetrics(platform, date),
      });
    }
  }
  return rows;
}
