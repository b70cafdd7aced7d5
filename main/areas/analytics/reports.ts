import { AppError } from '../../kernel/app-error.js';
import type { AnalyticsRepo } from './repo.js';

/**
 * What the analytics routes read and write in the store, each named when the store fails:
 * 500 DB_ERROR "analytics: reading content metrics failed" (spec §7).
 */
export function analyticsReports(repo: AnalyticsRepo) {
  return {
    socialMetrics: named('reading social metrics', repo.socialMetrics),
    followers: named('reading follower counts', repo.followers),
    topPosts: named('ranking posts', repo.topPosts),
    insertContentMetric: named('storing content metrics', repo.insertContentMetric),
    contentMetrics: named('reading content metrics', repo.contentMetrics),
    runs: named('reading collection runs', repo.runs),
    lastCollected: named('reading collection times', repo.lastCollected),
    lastContentReceived: named('reading content receipts', repo.lastContentReceived),
  };
}

function named<A extends unknown[], R>(what: string, run: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return run(...args);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw AppError.peer('DB_ERROR', `analytics: ${what} failed`, undefined, error);
    }
  };
}
