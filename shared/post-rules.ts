import twitterText from 'twitter-text';
import { postingPlatforms, type PlatformKey } from './platforms.js';
import { dateBoundIssue } from './time-bounds.js';

/**
 * The posting rules of spec §2.4/§8 and DESIGN §6.2, pure, shared by the bridge (which enforces
 * them) and the dashboard's composer (which shows them as the operator types).
 */

/** Recommended lead time: a post scheduled sooner is accepted with a warning. */
export const MIN_LEAD_MS = 10 * 60_000;
/** Recommended spacing between two posts on the same platform. */
export const MIN_SPACING_MS = 2 * 3_600_000;

/** Characters as the platform counts them: microblog like its platform (URL 23, wide 2), others code points. */
export function countChars(platform: PlatformKey, text: string): number {
  if (postingPlatforms[platform].weightedCount) return twitterText.parseTweet(text).weightedLength;
  return [...text].length;
}

export interface LengthCheck {
  platform: PlatformKey;
  count: number;
  limit: number;
  over: boolean;
}

export function lengthChecks(text: string, platforms: readonly PlatformKey[]): LengthCheck[] {
  return platforms.map((platform) => {
    const count = countChars(platform, text);
    const limit = postingPlatforms[platform].charLimit;
    return { platform, count, limit, over: count > limit };
  });
}

/** `#Launch`, `launch` → `launch`; null when it cannot be a hashtag (empty, spaces, another `#`). */
export function normalizeHashtag(tag: string): string | null {
  const bare = tag.trim().replace(/^#+/, '');
  if (bare === '' || /[\s#]/u.test(bare)) return null;
  return bare;
}

/**
 * Appends each hashtag once: one already in the text (case-insensitive, as platforms match
 * them) or earlier in the list is not added again.
 */
export function appendHashtags(text: string, hashtags: readonly string[]): string {
  const seen = new Set(twitterText.extractHashtags(text).map((tag) => tag.toLowerCase()));
  const added: string[] = [];
  for (const tag of hashtags) {
    const bare = normalizeHashtag(tag);
    if (bare === null || seen.has(bare.toLowerCase())) continue;
    seen.add(bare.toLowerCase());
    added.push(`#${bare}`);
  }
  if (added.length === 0) return text;
  const body = text.trimEnd();
  return body === '' ? added.join(' ') : `${body} ${added.join(' ')}`;
}

/** ISO 8601 date-time with `Z` or an offset: a time without a zone means different instants to different people. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface RuleIssue {
  field: string;
  rule: string;
  message: string;
  /** INVALID_DATE for a date that is not a date, is in the past or out of bounds (time-bounds.ts); VALIDATION_ERROR otherwise. */
  code: 'VALIDATION_ERROR' | 'INVALID_DATE';
}

/** Another post on the bridge's books, for the spacing rule. */
export interface NearbyPost {
  platforms: readonly string[];
  /** When it publishes (ISO 8601). */
  at: string;
}

export interface PostDraft {
  post: string;
  platforms: readonly PlatformKey[];
  hashtags?: readonly string[];
  mediaUrls?: readonly string[];
  /** ISO 8601; absent or null: publish now. */
  scheduleDate?: string | null;
}

export interface PostReview {
  /** The text as it will be sent (hashtags appended). */
  text: string;
  lengths: LengthCheck[];
  errors: RuleIssue[];
  warnings: string[];
}

/** Every rule at once: the composer shows all of them, the bridge refuses on the first error. */
export function reviewPost(
  draft: PostDraft,
  context: { now: Date; nearby?: readonly NearbyPost[] },
): PostReview {
  const errors: RuleIssue[] = [];
  const warnings: string[] = [];
  const text = appendHashtags(draft.post, draft.hashtags ?? []);

  if (draft.post.trim() === '') {
    errors.push({
      field: 'post',
      rule: 'required',
      message: 'post: must not be empty',
      code: 'VALIDATION_ERROR',
    });
  }
  if (draft.platforms.length === 0) {
    errors.push({
      field: 'platforms',
      rule: 'required',
      message: 'platforms: choose at least one platform',
      code: 'VALIDATION_ERROR',
    });
  }
  const duplicates = draft.platforms.filter((p, i) => draft.platforms.indexOf(p) !== i);
  if (duplicates.length > 0) {
    errors.push({
      field: 'platforms',
      rule: 'unique',
      message: `platforms: ${[...new Set(duplicates)].join(', ')} listed more than once`,
      code: 'VALIDATION_ERROR',
    });
  }
  for (const tag of draft.hashtags ?? []) {
    if (normalizeHashtag(tag) === null) {
      errors.push({
        field: 'hashtags',
        rule: 'hashtag',
        message: `hashtags: "${tag}" is not a hashtag (no spaces, at least one character)`,
        code: 'VALIDATION_ERROR',
      });
    }
  }

  const lengths = lengthChecks(text, [...new Set(draft.platforms)]);
  for (const check of lengths.filter((c) => c.over)) {
    errors.push({
      field: 'post',
      rule: 'max-length',
      message: `post: ${check.count} characters, ${check.platform} allows ${check.limit}`,
      code: 'VALIDATION_ERROR',
    });
  }

  const mediaUrls = draft.mediaUrls ?? [];
  for (const [i, url] of mediaUrls.entries()) {
    if (!isHttpUrl(url)) {
      errors.push({
        field: `mediaUrls.${i}`,
        rule: 'http-url',
        message: `mediaUrls.${i}: "${url}" is not an http(s) URL`,
        code: 'VALIDATION_ERROR',
      });
    }
  }
  for (const platform of new Set(draft.platforms)) {
    const required = postingPlatforms[platform].requiresMedia;
    if (required === null) continue;
    if (mediaUrls.length === 0) {
      errors.push({
        field: 'mediaUrls',
        rule: 'media-required',
        message: `mediaUrls: ${platform} requires ${required === 'video' ? 'a video' : 'an image'}`,
        code: 'VALIDATION_ERROR',
      });
    } else if (!mediaUrls.some((url) => mediaKindOf(url) === required || mediaKindOf(url) === 'unknown')) {
      warnings.push(
        `${platform} requires ${required === 'video' ? 'a video' : 'an image'}; none of the media URLs looks like one`,
      );
    }
  }

  // An empty string is not "now": publishing at once must be asked for by leaving the date out.
  if (draft.scheduleDate !== undefined && draft.scheduleDate !== null) {
    const at = ISO_DATE_TIME.test(draft.scheduleDate) ? Date.parse(draft.scheduleDate) : NaN;
    // Before 2000 or more than 5 years ahead (shared/time-bounds.ts): said so, not "in the past".
    const bound = dateBoundIssue('scheduleDate', draft.scheduleDate, context.now);
    if (Number.isNaN(at)) {
      errors.push({
        field: 'scheduleDate',
        rule: 'iso-8601',
        message: `scheduleDate: "${draft.scheduleDate}" is not an ISO 8601 date-time with a zone (e.g. 2026-07-08T12:30:00Z)`,
        code: 'INVALID_DATE',
      });
    } else if (bound) {
      errors.push({ field: bound.field, rule: bound.rule, message: bound.message, code: 'INVALID_DATE' });
    } else if (at <= context.now.getTime()) {
      errors.push({
        field: 'scheduleDate',
        rule: 'future',
        message: `scheduleDate: ${new Date(at).toISOString()} is in the past (now ${context.now.toISOString()})`,
        code: 'INVALID_DATE',
      });
    } else {
      warnings.push(...timingWarnings(draft.platforms, at, context.now, context.nearby ?? []));
    }
  } else {
    warnings.push(
      ...timingWarnings(draft.platforms, context.now.getTime(), context.now, context.nearby ?? [], false),
    );
  }
  return { text, lengths, errors, warnings };
}

/** Lead time under 10 minutes, and other posts within 2 h on the same platform (spec §8). */
export function timingWarnings(
  platforms: readonly string[],
  at: number,
  now: Date,
  nearby: readonly NearbyPost[],
  scheduled = true,
): string[] {
  const warnings: string[] = [];
  const leadMs = at - now.getTime();
  if (scheduled && leadMs < MIN_LEAD_MS) {
    warnings.push(
      `scheduleDate is ${Math.max(0, Math.round(leadMs / 60_000))} min ahead; at least 10 minutes is recommended`,
    );
  }
  for (const platform of new Set(platforms)) {
    const close = nearby
      .filter((other) => other.platforms.includes(platform))
      .map((other) => Date.parse(other.at))
      .filter((time) => !Number.isNaN(time) && Math.abs(time - at) < MIN_SPACING_MS)
      .sort((a, b) => Math.abs(a - at) - Math.abs(b - at));
    const nearest = close[0];
    if (nearest !== undefined) {
      const minutes = Math.round(Math.abs(nearest - at) / 60_000);
      warnings.push(
        `${platform}: another post goes out at ${new Date(nearest).toISOString()} (${minutes} min apart); 2 to 3 hours of spacing is recommended`,
      );
    }
  }
  return warnings;
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const protocol = new URL(value).protocol;
  return protocol === 'http:' || protocol === 'https:';
}

const VIDEO = /\.(mp4|mov|m4v|webm|avi|mkv)$/i;
const IMAGE = /\.(jpe?g|png|gif|webp|heic)$/i;

/** By the path's extension; `unknown` when there is none to go by (a CDN URL may still be either). */
export function mediaKindOf(url: string): 'video' | 'image' | 'unknown' {
  if (!URL.canParse(url)) return 'unknown';
  const { pathname } = new URL(url);
  return VIDEO.test(pathname) ? 'video' : IMAGE.test(pathname) ? 'image' : 'unknown';
}
