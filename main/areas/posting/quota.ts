import type { QuotaSnapshot } from '../../../shared/api/posting.js';
import { planDailyQuota } from '../../../shared/platforms.js';
import type { PostsvcPlan } from '../../config/config.js';
import type { PostingRepo } from './repo.js';
import { quotaDay } from './keys.js';

/**
 * The plan's posts per day (spec §8), counted from the ledger by the UTC day on which the
 * provider creates each post, whatever asked for it (API or webhook) (DESIGN §6.2).
 */
export class QuotaTracker {
  constructor(
    private readonly repo: PostingRepo,
    private readonly config: { readonly postsvc?: { readonly plan: PostsvcPlan } | null | undefined },
    private readonly now: () => Date,
  ) {}

  /** The provider plan (POSTSVC_PLAN): its quota, and whether a post is moved in place (premium and up). */
  plan(): PostsvcPlan {
    return this.config.postsvc?.plan ?? 'free';
  }

  limit(): number {
    return planDailyQuota[this.plan()];
  }

  snapshot(): QuotaSnapshot {
    const { day, resetsAt } = quotaDay(this.now());
    const limit = this.limit();
    const used = this.repo.usedOn(day);
    return {
      plan: this.plan(),
      limit,
      used,
      left: Math.max(0, limit - used),
      resetsAt: resetsAt.toISOString(),
    };
  }

  /** Seconds until the quota resets (Retry-After). */
  retryAfterS(): number {
    return Math.max(1, Math.ceil((quotaDay(this.now()).resetsAt.getTime() - this.now().getTime()) / 1000));
  }
}

export function quotaMessage(quota: QuotaSnapshot): string {
  return `daily posting quota used up: ${quota.used} of ${quota.limit} posts today on the ${quota.plan} plan (UTC); it resets at ${quota.resetsAt}`;
}
