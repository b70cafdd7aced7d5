import type { NearbyPost } from '../../../shared/post-rules.js';
import { platformKeys, type PlatformKey } from '../../../shared/platforms.js';
import { dateBoundIssue } from '../../../shared/time-bounds.js';
import { bodyHash, contentHash, type OutgoingPost } from './keys.js';
import { judgeLateness } from './late-posts.js';
import { postRules } from './post-rules.js';
import type { SocialPostRecord } from './social-post-record.js';

/** A SocialPost as the provider would get it, and what the posting rules say of it. */
export interface Draft {
  /** Null when it cannot even be built (no platform the provider knows, no time). */
  outgoing: (OutgoingPost & { platforms: PlatformKey[]; scheduleDate: string }) | null;
  /** Text, platforms and media (issue #36.3): a time-only change keeps it. */
  bodyHash: string | null;
  /** The body and the record's own time, also for a late post sent now (DESIGN §6.9). */
  contentHash: string | null;
  /** The first rule it breaks, in words naming the record's field. */
  problem: { message: string; code: string } | null;
  warnings: string[];
}

/** The record's post, built without the rules (pure): what its hashes cover. */
export function draftOf(record: SocialPostRecord): Draft {
  const none = (message: string): Draft => ({
    outgoing: null,
    bodyHash: null,
    contentHash: null,
    problem: { message, code: 'VALIDATION_ERROR' },
    warnings: [],
  });
  const platform = record.platform.toLowerCase();
  if (!(platformKeys as readonly string[]).includes(platform))
    return none(`platform: "${record.platform}" is not a platform the provider knows`);
  if (!record.scheduledAt || Number.isNaN(Date.parse(record.scheduledAt)))
    return none('scheduledAt: required for a Scheduled post');
  const outgoing = {
    post: record.content,
    platforms: [platform as PlatformKey],
    mediaUrls: record.mediaUrl ? [record.mediaUrl] : [],
    scheduleDate: new Date(record.scheduledAt).toISOString(),
  };
  return {
    outgoing,
    bodyHash: bodyHash(outgoing),
    contentHash: contentHash(outgoing),
    problem: null,
    warnings: [],
  };
}

/**
 * The draft with the posting rules' verdict (spacing against `nearby`). A post late within the
 * grace is reviewed as "publish now": its passed time is not an error then.
 */
export async function reviewDraft(
  record: SocialPostRecord,
  context: { now: Date; graceMs: number; nearby: (at: number) => Promise<NearbyPost[]> },
): Promise<Draft> {
  const draft = draftOf(record);
  if (!draft.outgoing) return draft;
  const { now, graceMs } = context;
  const at = Date.parse(draft.outgoing.scheduleDate);
  const postNow =
    !dateBoundIssue('scheduledAt', draft.outgoing.scheduleDate, now) &&
    judgeLateness({ scheduledAt: draft.outgoing.scheduleDate, now, graceMs, trigger: 'webhook', attempt: 1 })
      .kind === 'late';
  const { reviewPost } = await postRules();
  const review = reviewPost(postNow ? { ...draft.outgoing, scheduleDate: null } : draft.outgoing, {
    now,
    nearby: await context.nearby(at),
  });
  const first = review.errors[0];
  return {
    ...draft,
    problem: first
      ? {
          message: first.message
            .replace(/^post:/, 'content:')
            .replace(/^scheduleDate:/, 'scheduledAt:')
            .replace(/^mediaUrls:/, 'mediaUrl:'),
          code: first.code,
        }
      : null,
    warnings: review.warnings,
  };
}
