import { z } from 'zod';
import { publishedPosts } from './analytics.js';
import { platformKeys } from '../platforms.js';
import { ISO_DATE_TIME } from '../time-bounds.js';
import { SPACE } from '../portable-pattern.js';
import {
  boundedDateTimeText,
  calendarDate,
  defineContract,
  idString,
  isoDateTime,
  NOT_BLANK,
  peerFailure,
  queryInt,
} from './contract.js';

/** Social posting (spec §4.1) and the dashboard's posts view (ledger + CRM). */

const platformKey = z.enum(platformKeys);

export const quotaSnapshot = z.object({
  plan: z.string(),
  limit: z.number(),
  used: z.number(),
  left: z.number(),
  resetsAt: z.string(),
});
export type QuotaSnapshot = z.infer<typeof quotaSnapshot>;

/**
 * The posting rules (shared/post-rules.ts, which give the messages) as /openapi.json states
 * them. Not expressible there: each platform's length limit and the platforms that need media.
 */
const postRulesInJsonSchema = {
  post: {
    minLength: 1,
    pattern: NOT_BLANK.pattern,
    description: "the post text; each chosen platform's length limit applies (hashtags included)",
  },
  platforms: { minItems: 1, uniqueItems: true },
  scheduleDate: {
    format: 'date-time',
    pattern: ISO_DATE_TIME.source,
    description: 'in the future, at most 5 years ahead; omitted or null: publish now',
  },
  mediaUrl: {
    format: 'uri',
    pattern: String.raw`^https?://[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z][A-Za-z0-9-]*)*(?::[0-9]{1,4})?(?:/[^${SPACE}]*)?$`,
    description: 'an http(s) URL; videosite and shortvideo need a video, pinboard an image',
  },
  hashtag: {
    pattern: String.raw`^[${SPACE}]*#*[^${SPACE}#]+[${SPACE}]*$`,
    description: 'a hashtag, with or without #',
  },
};

export const postDraftBody = z.object({
  post: z.string({ error: 'required, the post text' }).meta(postRulesInJsonSchema.post),
  platforms: z
    .array(platformKey, {
      error: `required, an array of platform keys (${platformKeys.join(', ')})`,
    })
    .meta(postRulesInJsonSchema.platforms),
  /** ISO 8601 with a zone, in the future, from 2000 to 5 years ahead; omitted: publish now. Checked by the posting rules (INVALID_DATE). */
  scheduleDate: z.string().meta(postRulesInJsonSchema.scheduleDate).nullish(),
  mediaUrls: z.array(z.string().meta(postRulesInJsonSchema.mediaUrl)).default([]),
  hashtags: z.array(z.string().meta(postRulesInJsonSchema.hashtag)).default([]),
  shortenLinks: z.boolean().default(true),
  /** Issue #44.2: the production the post is for (its thread lists the post). */
  contentProductionId: idString.meta({ description: 'the CRM ContentProduction the post is for' }).optional(),
  /** Issue #44.2: the CRM Clip whose media the post carries. */
  clipId: idString.meta({ description: 'the CRM Clip the post was made from' }).optional(),
});

export type PostDraftInput = z.output<typeof postDraftBody>;

/** The client's key for one post: a repeat returns the first post; a preview with it is not spaced against that post. */
const idempotencyKeyField = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{8,100}$/, '8 to 100 letters, digits or . _ : -')
  .optional();

export const schedulePost = defineContract({
  method: 'post',
  path: '/postsvc/schedule',
  tag: 'posting',
  summary:
    "Schedule (or publish now) a post at the provider. Checks every chosen platform's limit, media and date; enforces the daily quota; `idempotencyKey` makes a repeated request return the first post instead of posting twice.",
  auth: 'key',
  body: postDraftBody.extend({ idempotencyKey: idempotencyKeyField }),
  response: z.object({
    success: z.literal(true),
    id: z.string(),
    status: z.enum(['scheduled', 'published']),
    post: z.string(),
    scheduleDate: z.string().nullable(),
    posts: z.array(
      z.object({
        platform: z.string(),
        status: z.string(),
        postId: z.string().nullable(),
        postUrl: z.string().nullable(),
      }),
    ),
    warnings: z.array(z.string()),
    /** The same idempotencyKey was seen before: this is the first request's post. */
    reused: z.boolean(),
  }),
});

export const deletePost = defineContract({
  method: 'post',
  path: '/postsvc/delete',
  tag: 'posting',
  summary: 'Cancel a scheduled post or delete a published one, by provider post id.',
  auth: 'key',
  body: z.object({ id: idString.meta({ description: 'the provider post id' }) }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const cancelPost = defineContract({
  method: 'post',
  path: '/api/posts/cancel',
  tag: 'posting',
  summary:
    "The dashboard's Cancel: calls back a scheduled post, but never deletes one already live (DESIGN §6.9). The provider is read first when the post's time is under 2 min away or past; a post published on any platform is answered 409 ALREADY_PUBLISHED with `details.platforms` (and `postUrls`), nothing deleted — deleting it is POST /postsvc/delete, asked for by name. A CRM post goes back to Draft.",
  auth: 'key',
  body: z.object({ id: idString.meta({ description: 'the provider post id' }) }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const historyStatus = z.enum(['scheduled', 'published', 'error']);
export const historyItem = z.object({
  id: z.string(),
  post: z.string(),
  platforms: z.array(z.string()),
  status: z.enum(['scheduled', 'published', 'error', 'deleted']),
  publishedAt: z.string().nullable(),
  scheduleDate: z.string().nullable(),
  created: z.string().nullable(),
  analytics: z.object({ likes: z.number(), comments: z.number(), shares: z.number() }),
  errors: z.array(z.string()),
  /** The CRM SocialPost it belongs to, when the bridge scheduled it for one. */
  socialPostId: z.string().nullable(),
});
export type HistoryItem = z.infer<typeof historyItem>;

export const postHistory = defineContract({
  method: 'get',
  path: '/postsvc/history',
  tag: 'posting',
  summary: 'Posts at the provider, newest first. Per-post analytics come from the latest stored snapshot.',
  auth: 'key',
  query: z.object({
    limit: queryInt(1, 1000).default(50),
    status: historyStatus.optional(),
    platform: platformKey.optional(),
  }),
  response: z.object({ success: z.literal(true), data: z.array(historyItem) }),
});

export const postAnalytics = defineContract({
  method: 'get',
  path: '/postsvc/analytics',
  tag: 'posting',
  summary:
    'Provider analytics: for a `platform` its followers, following, impressions, engagement, engagementRate; for a `postId` its metrics per platform.',
  auth: 'key',
  query: z
    .object({
      platform: platformKey.optional(),
      postId: idString.optional(),
      startDate: calendarDate.optional(),
      endDate: calendarDate.optional(),
    })
    .refine((q) => q.platform !== undefined || q.postId !== undefined, {
      message: 'give a platform or a postId',
      path: ['platform'],
    })
    .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
      message: 'startDate must not be after endDate',
      path: ['startDate'],
    })
    .meta({ anyOf: [{ required: ['platform'] }, { required: ['postId'] }] }),
  response: z.union([
    z.object({
      success: z.literal(true),
      platform: z.string(),
      analytics: z.object({
        followers: z.number(),
        following: z.number(),
        impressions: z.number(),
        engagement: z.number(),
        engagementRate: z.number(),
      }),
    }),
    z.object({
      success: z.literal(true),
      postId: z.string(),
      analytics: z.record(
        z.string(),
        z.object({
          likes: z.number(),
          comments: z.number(),
          shares: z.number(),
          impressions: z.number(),
          clicks: z.number(),
        }),
      ),
      errors: z.record(z.string(), z.string()),
    }),
  ]),
});

export const syncPosts = defineContract({
  method: 'post',
  path: '/postsvc/sync',
  tag: 'posting',
  summary:
    'Reads every post from the provider and updates matching SocialPost records (status Published/Scheduled/Failed, by postsvcId). `synced`: SocialPost records matched; `updated`: those it changed (ledger row or CRM record, each post counted once); `errors`: CRM updates that failed.',
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    synced: z.number(),
    updated: z.number(),
    errors: z.number(),
    failures: z.array(z.object({ socialPostId: z.string(), error: z.string() })),
  }),
});

export const postViewStatus = z.enum([
  'draft',
  'sending',
  'checking',
  'scheduled',
  'published',
  /** Some platforms failed, the others are scheduled or out (issue #14.11). */
  'partial',
  'failed',
  'cancelled',
]);
export type PostViewStatus = z.infer<typeof postViewStatus>;

/** One platform of a post: its own state and, when it failed, the provider's reason. */
export const platformState = z.object({
  platform: z.string(),
  status: postViewStatus,
  error: z.string().nullable(),
  /** The provider post that carries this platform (a retry of failed platforms is a post of its own). */
  postsvcId: z.string().nullable(),
  /** Where the post is on the platform, once the provider published it. */
  postUrl: z.string().nullable(),
});
export type PlatformState = z.infer<typeof platformState>;

export const postView = z.object({
  /** Stable key for lists: `crm:<SocialPost id>` or `api:<ledger id>`. */
  key: z.string(),
  source: z.enum(['crm', 'api']),
  socialPostId: z.string().nullable(),
  ledgerId: z.number().nullable(),
  name: z.string().nullable(),
  /** The production the SocialPost record names (issue #42); null for an API post or none named. */
  contentProductionId: z.string().nullable(),
  contentProductionName: z.string().nullable(),
  /** The CRM Clip the post was made from (issue #44.2), when it names one. */
  clipId: z.string().nullable(),
  status: postViewStatus,
  crmStatus: z.string().nullable(),
  post: z.string(),
  platforms: z.array(z.string()),
  platformStates: z.array(platformState),
  mediaUrls: z.array(z.string()),
  scheduleDate: z.string().nullable(),
  /** When it goes (or went) out: the schedule date, else when it was sent. */
  publishAt: z.string().nullable(),
  postsvcId: z.string().nullable(),
  error: z.string().nullable(),
  /**
   * DESIGN §6.9: a post past its time the provider has not confirmed yet: `due` while the bridge
   * checks (every 2 min for an hour), `unconfirmed` after that (Check again); null otherwise.
   */
  confirmation: z.enum(['due', 'unconfirmed']).nullable(),
  /**
   * A live post held for the operator: its CRM record was set back to Scheduled
   * (`waiting-operator`: nothing is sent or cancelled) or deleted (`crm-deleted`: still live).
   */
  liveHold: z.enum(['waiting-operator', 'crm-deleted']).nullable(),
});
export type PostView = z.infer<typeof postView>;

export const listPosts = defineContract({
  method: 'get',
  path: '/api/posts',
  tag: 'posting',
  summary:
    "Scheduled, published and failed posts: the bridge's ledger merged with the CRM's SocialPost records, ordered by when they go out. With `from`/`to`, only that window.",
  auth: 'key',
  query: z.object({
    from: isoDateTime.optional(),
    to: isoDateTime.optional(),
    limit: queryInt(1, 1000).default(300),
  }),
  response: z.object({
    success: z.literal(true),
    data: z.array(postView),
    quota: quotaSnapshot,
    /** Set when the CRM could not be read: the list then holds the ledger only. */
    crmError: z.string().nullable(),
    /** Why the CRM could not be read, when it failed (issue #30: said in words on the dashboard). */
    crmFailure: peerFailure.nullable().optional(),
    /** The published posts (defined once, shared/api/analytics.ts); null with `from`/`to` or without the CRM. */
    published: publishedPosts.nullable(),
  }),
});

export const previewPost = defineContract({
  method: 'post',
  path: '/api/posts/preview',
  tag: 'posting',
  summary:
    'Checks a draft as /postsvc/schedule would (limits, media, date, spacing against the ledger) without posting. With the `idempotencyKey` it will be sent with, the post already sent under that key is not counted against itself.',
  auth: 'key',
  body: postDraftBody.extend({ idempotencyKey: idempotencyKeyField }),
  response: z.object({
    success: z.literal(true),
    post: z.string(),
    lengths: z.array(
      z.object({ platform: z.string(), count: z.number(), limit: z.number(), over: z.boolean() }),
    ),
    errors: z.array(z.object({ field: z.string(), rule: z.string(), message: z.string(), code: z.string() })),
    warnings: z.array(z.string()),
    quota: quotaSnapshot,
  }),
});

export const retryPost = defineContract({
  method: 'post',
  path: '/api/posts/retry',
  tag: 'posting',
  summary:
    'Try a failed post again at its time (a time that has passed is 400 INVALID_DATE: edit it instead): a CRM SocialPost is set back to Scheduled and scheduled; a failed API post is sent again with its idempotency key; a partly failed one sends only its failed platforms, as a new provider post.',
  auth: 'key',
  body: z
    .object({ socialPostId: idString.optional(), ledgerId: z.number().int().positive().optional() })
    .refine((b) => (b.socialPostId === undefined) !== (b.ledgerId === undefined), {
      message: 'give exactly one of socialPostId and ledgerId',
    })
    .meta({ oneOf: [{ required: ['socialPostId'] }, { required: ['ledgerId'] }] }),
  response: z.object({
    success: z.literal(true),
    status: postViewStatus,
    postsvcId: z.string().nullable(),
    message: z.string(),
  }),
});

export const postNowPost = defineContract({
  method: 'post',
  path: '/api/posts/post-now',
  tag: 'posting',
  summary:
    "Publish a CRM post now: a failed one (e.g. too late to go out by itself, DESIGN §6.9) or one still scheduled ahead (its provider post is called back first, through the live-safe cancel). Its record's scheduledAt is set to now and status to Scheduled, and the record's own work posts it through the ledger as a new generation, so it can never go out twice. A scheduled post whose time has come is refused (409): it may be going out; so is one whose provider post this bridge did not schedule (its record's job leaves that post alone).",
  auth: 'key',
  body: z.object({ socialPostId: idString }),
  response: z.object({
    success: z.literal(true),
    status: postViewStatus,
    postsvcId: z.string().nullable(),
    message: z.string(),
  }),
});

/** The body of a reschedule (and of its preview): the post's new text and time, for one post. */
const rescheduleBody = z
  .object({
    socialPostId: idString.optional(),
    ledgerId: z.number().int().positive().optional(),
    post: z.string({ error: 'required, the post text' }).meta(postRulesInJsonSchema.post),
    scheduleDate: z
      .string({ error: 'required, when to publish (ISO 8601 with a zone)' })
      .pipe(boundedDateTimeText)
      .meta(postRulesInJsonSchema.scheduleDate),
    platforms: z.array(platformKey).meta(postRulesInJsonSchema.platforms).optional(),
    mediaUrls: z.array(z.string().meta(postRulesInJsonSchema.mediaUrl)).optional(),
    hashtags: z.array(z.string().meta(postRulesInJsonSchema.hashtag)).default([]),
  })
  .refine((b) => (b.socialPostId === undefined) !== (b.ledgerId === undefined), {
    message: 'give exactly one of socialPostId and ledgerId',
  })
  .meta({ oneOf: [{ required: ['socialPostId'] }, { required: ['ledgerId'] }] });

/**
 * How a reschedule changes the provider post (issue #36.3): moved in place (PATCH: the same post,
 * no quota), cancelled and created anew (one post of the day's quota), created (a failed or
 * cancelled post sent anew), or not moved (under 2 min from its time or past it, or a time too close).
 */
export const rescheduleHow = z.enum(['moved-in-place', 'cancelled-and-created', 'created', 'not-moved']);

export const reschedulePost = defineContract({
  method: 'post',
  path: '/api/posts/reschedule',
  tag: 'posting',
  summary:
    "Edit and reschedule a post (a dashboard post by `ledgerId`, a CRM post by `socialPostId`, whose change is written to its record first). A post still scheduled that only gets a new time is moved in place on the premium and business plans (PATCH at the provider: the same post, its ledger row and key, no quota; never to a time under now + 2 min: 409); on the free plan, or with new text, media or platforms, it is cancelled at the provider and created anew (the cancelled post still counts toward the day's quota, checked first: 429 QUOTA_EXCEEDED). A post under 2 min from its time, or past it, is read first and not changed (409 ALREADY_PUBLISHED, or 409 due now). A time-only change of a CRM post writes only `scheduledAt` to the record; `scheduledAt` in the answer is the record's time after its job ran (the CRM wins a concurrent edit, and the message says so). A failed or cancelled post gets a new ledger generation (the old one stays, never two live posts); a partly failed one sends only the failed platforms (or new ones); a dashboard post still scheduled given other platforms is cancelled at the provider and created anew on them (one post of the quota; a CRM post keeps its record's platform). POST /api/posts/reschedule-preview says which of these a change would be, and its cost, before it is made.",
  auth: 'key',
  body: rescheduleBody,
  response: z.object({
    success: z.literal(true),
    status: postViewStatus,
    postsvcId: z.string().nullable(),
    warnings: z.array(z.string()),
    message: z.string(),
    /** How the provider post changed. */
    how: rescheduleHow.exclude(['not-moved']).optional(),
    /** When the post goes out now (a CRM post: its record's time after its job ran). */
    scheduledAt: z.string().nullable().optional(),
  }),
});

export const previewReschedule = defineContract({
  method: 'post',
  path: '/api/posts/reschedule-preview',
  tag: 'posting',
  summary:
    "What POST /api/posts/reschedule would do with the same body, said before it is done (nothing is changed, the provider is not called): `how` — moved in place (no quota), cancelled and created anew, created, or not moved —, `quotaCost` (posts of today's quota it would use) with the quota, and the posting rules' errors and warnings. A post that cannot be rescheduled as asked is `not-moved` with the reason in `message`.",
  auth: 'key',
  body: rescheduleBody,
  response: z.object({
    success: z.literal(true),
    how: rescheduleHow,
    quotaCost: z.number(),
    quota: quotaSnapshot,
    errors: z.array(z.object({ field: z.string(), rule: z.string(), message: z.string(), code: z.string() })),
    warnings: z.array(z.string()),
    message: z.string(),
  }),
});

export const getQuota = defineContract({
  method: 'get',
  path: '/api/posts/quota',
  tag: 'posting',
  summary:
    "The provider plan's daily post quota: used today (UTC, from the ledger), left, and when it resets.",
  auth: 'key',
  response: z.object({ success: z.literal(true), quota: quotaSnapshot }),
});

export const checkPost = defineContract({
  method: 'post',
  path: '/api/posts/check',
  tag: 'posting',
  summary:
    "Check again (DESIGN §6.9): reads the post's state at the provider now (GET /post/{id} when history does not reach it) and, if it is still not published or failed, keeps checking every 2 min for another hour. The CRM record follows as the timed checks do.",
  auth: 'key',
  body: z.object({ ledgerId: z.number().int().positive() }),
  response: z.object({
    success: z.literal(true),
    status: postViewStatus,
    confirmation: z.enum(['due', 'unconfirmed']).nullable(),
    message: z.string(),
  }),
});
