import type { PostView, PostViewStatus } from '../../../shared/api/posting.js';
import { postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import type { Tone } from '../components/StatusPill.js';

export const platformLabel = (key: string) => postingPlatforms[key as PlatformKey]?.label ?? key;

export const statusLabel: Record<PostViewStatus, string> = {
  draft: 'Draft',
  sending: 'Sending',
  checking: 'Checking',
  scheduled: 'Scheduled',
  published: 'Published',
  partial: 'Partly failed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const statusTone: Record<PostViewStatus, Tone> = {
  draft: 'neutral',
  sending: 'info',
  checking: 'warn',
  scheduled: 'info',
  published: 'ok',
  partial: 'warn',
  failed: 'bad',
  cancelled: 'neutral',
};

/** A post past its time the provider has not confirmed (DESIGN §6.9). */
export const confirmationLabel: Record<NonNullable<PostView['confirmation']>, string> = {
  due: 'Due — checking',
  unconfirmed: 'Unconfirmed',
};

export const confirmationHelp: Record<NonNullable<PostView['confirmation']>, string> = {
  due: 'Its time has passed; the bridge is asking the provider whether it went out (every 2 minutes for an hour).',
  unconfirmed:
    'An hour after its time the provider still has not said it went out. It is not marked failed: check the platform, or Check again.',
};

/** What a status means for the operator, as a tooltip. */
export const statusHelp: Record<PostViewStatus, string> = {
  draft: 'Not sent to the provider.',
  sending: 'The bridge is sending it to the provider now.',
  checking:
    'The provider did not confirm it; the bridge is checking the provider history and will not send it twice.',
  scheduled: 'Queued at the provider.',
  published: 'Out on the platform.',
  partial:
    'Out (or queued) on some platforms, refused on others: retry sends only the platforms that failed; "Cancel the rest" calls back the ones still scheduled.',
  failed:
    'Not out and not queued: the bridge does not send it again by itself. Retry sends it once more; Edit changes it first.',
  cancelled: 'Cancelled at the provider.',
};

/**
 * The provider posts of a post that can still be called back, and the platforms they carry.
 * Cancelling a provider post takes all its platforms, so one that carries a published
 * platform is never offered (a published post stays); a partly failed post is cancelled for
 * the platforms still scheduled, through the same cancel as a whole post (issue #14 point 8).
 */
export function cancellable(post: PostView): { ids: string[]; platforms: string[] } {
  if (post.status === 'scheduled' && post.postsvcId !== null && post.platformStates.length === 0)
    return { ids: [post.postsvcId], platforms: post.platforms };
  const byPost = new Map<string, PostView['platformStates']>();
  for (const state of post.platformStates) {
    if (state.postsvcId === null) continue;
    byPost.set(state.postsvcId, [...(byPost.get(state.postsvcId) ?? []), state]);
  }
  const ids: string[] = [];
  const platforms: string[] = [];
  for (const [id, states] of byPost) {
    const scheduled = states.filter((state) => state.status === 'scheduled');
    if (
      scheduled.length === 0 ||
      states.some((state) => state.status === 'published' || state.status === 'sending')
    )
      continue;
    ids.push(id);
    platforms.push(...scheduled.map((state) => state.platform));
  }
  return { ids, platforms };
}
