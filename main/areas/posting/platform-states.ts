import type { PlatformState, PostViewStatus } from '../../../shared/api/posting.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import type { ProviderPlatformError, ProviderPostId } from '../../peers/postsvc-wire.js';
import type { LedgerRow, PlatformOutcome, PlatformOutcomes } from './repo.js';

/**
 * Each platform of a post has its own state (issue #14.11): the provider may post to one
 * platform and refuse another. What it answered per platform is kept on the ledger row; a
 * post that sends the failed platforms again (`retry_of`) takes over those platforms.
 */

/** The provider's answer per platform: an accepted entry is scheduled/published, the rest failed with its reason. */
export function outcomesOf(
  platforms: readonly PlatformKey[],
  accepted: readonly ProviderPostId[],
  refusals: readonly ProviderPlatformError[],
  fallbackError: string,
): PlatformOutcomes {
  const outcomes: PlatformOutcomes = {};
  for (const platform of platforms) {
    const entry = accepted.find((e) => e.platform === platform && e.status !== 'error');
    outcomes[platform] = entry
      ? {
          status: entryStatus(entry.status),
          error: null,
          postId: entry.id ?? null,
          postUrl: entry.postUrl ?? null,
        }
      : {
          status: 'failed',
          error: refusals.find((e) => e.platform === platform)?.message ?? fallbackError,
          postId: null,
        };
  }
  return outcomes;
}

function entryStatus(status: string): PlatformOutcome['status'] {
  if (status === 'scheduled') return 'scheduled';
  if (status === 'deleted') return 'cancelled';
  return 'published';
}

/** One row's platforms as the dashboard shows them. */
export function rowPlatformStates(row: LedgerRow): PlatformState[] {
  return row.platforms.map((platform) => {
    const whole = (status: PostViewStatus, error: string | null = null): PlatformState => ({
      platform,
      status,
      error,
      postsvcId: status === 'failed' ? null : row.postsvc_id,
      postUrl: status === 'published' ? (row.platform_states?.[platform]?.postUrl ?? null) : null,
    });
    switch (row.state) {
      case 'claimed':
        return whole('sending');
      case 'unknown':
        return whole('checking');
      case 'cancelled':
        return whole('cancelled');
      case 'failed':
        return whole('failed', row.platform_states?.[platform]?.error ?? row.error);
      case 'posted': {
        const outcome = row.platform_states?.[platform];
        if (!outcome) {
          // Written before per-platform states: the row's own state stands for every platform.
          if (row.error || row.provider_status === 'error') return whole('failed', row.error);
          if (row.provider_status === 'deleted') return whole('cancelled');
          return whole(row.provider_status === 'published' ? 'published' : 'scheduled');
        }
        if (outcome.status === 'failed') return whole('failed', outcome.error);
        if (row.provider_status === 'deleted') return whole('cancelled');
        return whole(outcome.status);
      }
    }
  });
}

/** A post and the posts that sent its failed platforms again: the latest attempt speaks for each platform. */
export function mergedPlatformStates(root: LedgerRow, retries: readonly LedgerRow[]): PlatformState[] {
  const states = new Map(rowPlatformStates(root).map((state) => [state.platform, state]));
  for (const retry of retries) {
    for (const state of rowPlatformStates(retry)) states.set(state.platform, state);
  }
  return [...states.values()];
}

/** The whole post's status: `partial` when some platforms failed and others are out or on their way. */
export function overallStatus(states: readonly PlatformState[]): PostViewStatus {
  const statuses = states.map((state) => state.status);
  if (statuses.includes('sending')) return 'sending';
  if (statuses.includes('checking')) return 'checking';
  const failed = statuses.filter((status) => status === 'failed').length;
  const live = statuses.some((status) => status === 'scheduled' || status === 'published');
  if (failed > 0) return live ? 'partial' : 'failed';
  if (statuses.includes('scheduled')) return 'scheduled';
  if (statuses.includes('published')) return 'published';
  return statuses.length === 0 ? 'draft' : 'cancelled';
}
