import twitterText from 'twitter-text';
import { postingPlatforms, type PlatformKey } from './platforms.js';
import { MIN_LEAD_MS, MIN_SPACING_MS } from './post-timing.js';
import { dateBoundIssue, ISO_DATE_TIME } from './time-bounds.js';

export { ISO_DATE_TIME, MIN_LEAD_MS, MIN_SPACING_MS };

/**
 * The posting rules of spec §2.4/§8 and DESIGN §6.2, pure, shared by the bridge (which enforces
 * them) and the dashboard's composer (which shows them as the operator types).
 */

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

export interface RuleIssue {
  field: string;
  rule: string;
  message: string;
  /**
   * INVALID_DATE for a date that is not a date, is in the past or out of bounds (time-bounds.ts);
   * INVALID_MEDIA for a platform's media rule (DESIGN §6.8); VALIDATION_ERROR otherwise.
   */
  code: 'VALIDATION_ERROR' | 'INVALID_DATE' | 'INVALID_MEDIA';
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
    const check = mediaCheck(platform, mediaUrls);
    if (check.verdict === 'missing' || check.verdict === 'wrong') {
      errors.push({
        field: 'mediaUrls',
        rule: check.verdict === 'missing' ? 'media-required' : 'media-kind',
        message: check.message!,
        code: 'INVALID_MEDIA',
      });
    } else if (check.verdict === 'unknown') {
      warnings.push(check.message!);
    }
  }

  // An empty string is not "now": publishing at once must be asked for by leaving the date out.
  if (draft.scheduleDate !== undefined && draft.scheduleDate !== null) {
    const at = ISO_DATE_TIME.test(draft.scheduleDate) ? Date.parse(draft.scheduleDate) : NaN;
    // Before 2000 or more than 5 years ahead (shared/time-bounds.ts): said so, not "in the past";
    // and before the format, so `+275760-09-13T00:00:00Z` is named out of bounds, not malformed.
    const bound = dateBoundIssue('scheduleDate', draft.scheduleDate, context.now);
    if (bound) {
      errors.push({ field: bound.field, rule: bound.rule, message: bound.message, code: 'INVALID_DATE' });
    } else if (Number.isNaN(at)) {
      errors.push({
        field: 'scheduleDate',
        rule: 'iso-8601',
        message: `scheduleDate: "${draft.scheduleDate}" is not an ISO 8601 date-time with a zone (e.g. 2026-07-08T12:30:00Z)`,
        code: 'INVALID_DATE',
      });
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
/** A known audio extension is neither image nor video: refused where media is needed (DESIGN §6.8, issue #30.6). */
const AUDIO = /\.(mp3|wav|m4a|aac|flac|ogg|oga|opus)$/i;

/** By the path's extension; `unknown` when there is none to go by (a CDN URL may still be either). */
export function mediaKindOf(url: string): 'video' | 'image' | 'audio' | 'unknown' {
  if (!URL.canParse(url)) return 'unknown';
  const { pathname } = new URL(url);
  if (VIDEO.test(pathname)) return 'video';
  if (IMAGE.test(pathname)) return 'image';
  return AUDIO.test(pathname) ? 'audio' : 'unknown';
}

const kindWords = { image: 'an image', video: 'a video', audio: 'an audio file' } as const;

const mediaNeeded = { video: 'a video', image: 'an image', 'image-or-video': 'an image or a video' } as const;

export interface MediaCheck {
  platform: PlatformKey;
  /** What the platform needs, in words ("a video"); null: no media needed. */
  needs: string | null;
  /**
   * ok: needed media is there (or none is needed); unknown: a URL whose kind its extension does
   * not tell (a warning, DESIGN §6.8); missing: no media; wrong: every URL is of another kind.
   */
  verdict: 'ok' | 'unknown' | 'missing' | 'wrong';
  /** The rule in words, naming the platform, for every verdict but ok. */
  message: string | null;
}

/** A platform's media rule (DESIGN §6.8), judged from the URLs' extensions: nothing is fetched. */
export function mediaCheck(platform: PlatformKey, mediaUrls: readonly string[]): MediaCheck {
  const required = postingPlatforms[platform].requiresMedia;
  if (required === null) return { platform, needs: null, verdict: 'ok', message: null };
  const needs = mediaNeeded[required];
  const fits = (kind: ReturnType<typeof mediaKindOf>) =>
    kind === required || (required === 'image-or-video' && (kind === 'image' || kind === 'video'));
  const rule = `mediaUrls: ${platform} needs ${needs}`;
  if (mediaUrls.length === 0) return { platform, needs, verdict: 'missing', message: `${rule}; none given` };
  const kinds = mediaUrls.map((url) => ({ url, kind: mediaKindOf(url) }));
  if (kinds.some(({ kind }) => fits(kind))) return { platform, needs, verdict: 'ok', message: null };
  const unknown = kinds.filter(({ kind }) => kind === 'unknown').map(({ url }) => url);
  if (unknown.length > 0) {
    return {
      platform,
      needs,
      verdict: 'unknown',
      message: `${rule}; the kind of ${unknown.join(', ')} cannot be told from its extension`,
    };
  }
  const found = kinds.map(({ url, kind }) => `${url} is ${kindWords[kind as keyof typeof kindWords]}`);
  return { platform, needs, verdict: 'wrong', message: `${rule}; ${found.join(', ')}` };
}

export interface PlatformPreview {
  platform: PlatformKey;
  count: number;
  limit: number;
  /** The text up to the platform's limit, as the platform counts it. */
  kept: string;
  /** What lies beyond the limit ('' when the post fits). */
  cut: string;
}

/** How a platform counts the text and where its limit cuts it (microblog: twitter-text's weighted count). */
export function platformPreview(platform: PlatformKey, text: string): PlatformPreview {
  const limit = postingPlatforms[platform].charLimit;
  const count = countChars(platform, text);
  if (count <= limit) return { platform, count, limit, kept: text, cut: '' };
  // validRangeEnd: the index (UTF-16) of the last character within the weighted limit.
  const end = postingPlatforms[platform].weightedCount
    ? twitterText.parseTweet(text).validRangeEnd + 1
    : [...text].slice(0, limit).join('').length;
  return { platform, count, limit, kept: text.slice(0, end), cut: text.slice(end) };
}
