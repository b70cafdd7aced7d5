import type { TopPostRow } from '../../../shared/api/analytics.js';
import type { TopPostRecord } from './repo.js';

/** (likes+comments+shares)/impressions, 0 when there were no impressions, 4 decimals (DESIGN §6.5). */
export function engagementRate(numbers: {
  likes: number;
  comments: number;
  shares: number;
  impressions: number;
}): number {
  if (numbers.impressions <= 0) return 0;
  const rate = (numbers.likes + numbers.comments + numbers.shares) / numbers.impressions;
  return Math.round(rate * 10_000) / 10_000;
}

export function toTopPostRow(record: TopPostRecord): TopPostRow {
  return {
    post_id: record.post_id,
    platform: record.platform,
    postsvc_id: record.postsvc_id,
    content: record.content,
    likes: record.likes,
    comments: record.comments,
    shares: record.shares,
    impressions: record.impressions,
    total_engagement: record.likes + record.comments + record.shares,
    engagement_rate: engagementRate(record),
    collected_at: record.collected_at,
  };
}
