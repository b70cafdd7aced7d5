import { z } from 'zod';
import { platformKeys } from '../platforms.js';
import { defineContract, idString, isoDateTime, NOT_BLANK, queryInt } from './contract.js';

/**
 * Analytics (spec §4.2, DESIGN §6.5). Field names of the stored records are snake_case as the
 * spec lists them. Dates are `YYYY-MM-DD` (UTC days), inclusive at both ends; the routes check
 * them as real calendar dates themselves so that a bad one answers 400 INVALID_DATE (spec §7)
 * rather than a generic VALIDATION_ERROR.
 */

/** The platforms collection always covers (spec §4.2); other linked accounts are added per run. */
export const defaultCollectionPlatforms = ['microblog', 'socialnet', 'photogram', 'professional'] as const;

/**
 * A social platform key (spec §2.8); `Microblog` is accepted as `microblog`. /openapi.json
 * lists the keys as written (an enum cannot say "in any case").
 */
export const socialPlatform = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(platformKeys))
  .meta({ enum: [...platformKeys], description: 'a platform key (any case is accepted)' });

/**
 * A video platform key of content metrics ("such as altvideo and videosite", spec §2.8): an open
 * set, so any lower-case slug; `Videosite` is accepted as `videosite`.
 */
export const contentPlatform = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a platform key such as videosite or altvideo'))
  .meta({
    pattern: '^[a-z][a-z0-9_-]{0,39}$',
    description: 'a platform key such as videosite or altvideo (any case is accepted)',
  });

/** Checked by the route (400 INVALID_DATE), so only described here. */
const dateParam = z.string().meta({ description: 'YYYY-MM-DD (UTC day), inclusive', format: 'date' });

export const topPostMetrics = ['engagement', 'likes', 'shares'] as const;
export type TopPostMetric = (typeof topPostMetrics)[number];

const count = z.number().int().nonnegative();

export const socialMetricRow = z.object({
  metric_date: z.string(),
  platform: z.string(),
  impressions: count,
  engagement: count,
  reach: count,
  followers: count,
});
export type SocialMetricRow = z.infer<typeof socialMetricRow>;

export const getSocialMetrics = defineContract({
  method: 'get',
  path: '/analytics/social-metrics',
  tag: 'analytics',
  summary: 'Daily social metrics per platform, newest day first (then platform A–Z).',
  auth: 'key',
  query: z.object({
    startDate: dateParam.optional(),
    endDate: dateParam.optional(),
    platform: socialPlatform.optional(),
  }),
  response: z.object({ success: z.literal(true), data: z.array(socialMetricRow) }),
});

export const followerCountRow = z.object({ date: z.string(), platform: z.string(), count });
export type FollowerCountRow = z.infer<typeof followerCountRow>;

export const getFollowers = defineContract({
  method: 'get',
  path: '/analytics/followers',
  tag: 'analytics',
  summary: 'Follower counts per platform and day for the last `days` UTC days including today, newest first.',
  auth: 'key',
  query: z.object({
    days: queryInt(1, 3660).default(30),
    platform: socialPlatform.optional(),
  }),
  response: z.object({ success: z.literal(true), data: z.array(followerCountRow) }),
});

export const topPostRow = z.object({
  post_id: z.string(),
  platform: z.string(),
  /** The provider's post id (one provider post may go to several platforms). */
  postsvc_id: z.string(),
  content: z.string(),
  likes: count,
  comments: count,
  shares: count,
  impressions: count,
  total_engagement: count,
  /** (likes+comments+shares)/impressions, 0 when impressions is 0, 4 decimals. */
  engagement_rate: z.number(),
  /** When the snapshot ranked here (the post's latest) was taken. */
  collected_at: z.string(),
});
export type TopPostRow = z.infer<typeof topPostRow>;

export const getTopPosts = defineContract({
  method: 'get',
  path: '/analytics/top-posts',
  tag: 'analytics',
  summary:
    'Posts ranked by their latest snapshot, descending by the metric (engagement = likes + comments + shares); each post once.',
  auth: 'key',
  query: z.object({
    limit: queryInt(1, 1000).default(10),
    platform: socialPlatform.optional(),
    metric: z.enum(topPostMetrics).default('engagement'),
  }),
  response: z.object({ success: z.literal(true), data: z.array(topPostRow) }),
});

export const startCollection = defineContract({
  method: 'post',
  path: '/analytics/collect',
  tag: 'analytics',
  summary:
    'Starts a collection run now and answers at once; progress is streamed on /events (collection.progress). 409 while a run is going.',
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    message: z.string(),
    platforms: z.array(z.string()),
    runId: z.number().int(),
  }),
});

export const contentIngestBody = z.object({
  contentId: idString,
  platform: contentPlatform,
  platformContentId: idString.nullish(),
  views: count,
  watchHours: z.number().nonnegative().default(0),
  likes: count.default(0),
  comments: count.default(0),
  shares: count.default(0),
  /** When the numbers were read (default: now); for backfilling history. */
  collectedAt: isoDateTime.optional(),
  /** The content's title as the sender knows it, shown on the dashboard (optional). */
  contentName: z.string().max(300).trim().min(1).meta(NOT_BLANK).nullish(),
});

export const ingestContentMetrics = defineContract({
  method: 'post',
  path: '/analytics/content-ingest',
  tag: 'analytics',
  summary: 'Stores one snapshot of a content item’s numbers on a video platform.',
  auth: 'key',
  body: contentIngestBody,
  response: z.object({ success: z.literal(true), message: z.string(), id: z.number().int() }),
});

export const contentMetricRow = z.object({
  id: z.number().int(),
  content_id: z.string(),
  content_name: z.string().nullable(),
  platform: z.string(),
  platform_content_id: z.string().nullable(),
  views: count,
  watch_hours: z.number(),
  likes: count,
  comments: count,
  shares: count,
  collected_at: z.string(),
});
export type ContentMetricRow = z.infer<typeof contentMetricRow>;

export const getContentMetrics = defineContract({
  method: 'get',
  path: '/analytics/content-metrics',
  tag: 'analytics',
  summary:
    'Content metric snapshots, newest first; dates filter the UTC day of collected_at. `latest=true`: only the latest snapshot per content and platform.',
  auth: 'key',
  query: z.object({
    contentId: idString.optional(),
    platform: contentPlatform.optional(),
    startDate: dateParam.optional(),
    endDate: dateParam.optional(),
    latest: z.enum(['true', 'false', '1', '0']).optional(),
    limit: queryInt(1, 10_000).default(1000),
  }),
  response: z.object({ success: z.literal(true), data: z.array(contentMetricRow) }),
});

export const runStatuses = ['running', 'succeeded', 'partial', 'failed'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const runTriggers = ['manual', 'timer', 'catch-up'] as const;
export type RunTrigger = (typeof runTriggers)[number];

export const platformOutcome = z.object({
  platform: z.string(),
  status: z.enum(['ok', 'failed']),
  error: z.string().nullable(),
  followers: z.number().nullable(),
});
export type PlatformOutcome = z.infer<typeof platformOutcome>;

export const collectionRun = z.object({
  id: z.number().int(),
  trigger: z.enum(runTriggers),
  status: z.enum(runStatuses),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  platforms: z.array(z.string()),
  outcomes: z.array(platformOutcome),
  posts_seen: z.number().int(),
  posts_collected: z.number().int(),
  posts_failed: z.number().int(),
  /** COLLECTION_FAILED when nothing at all could be collected. */
  error_code: z.string().nullable(),
  error: z.string().nullable(),
});
export type CollectionRun = z.infer<typeof collectionRun>;

/**
 * The published posts, defined once (issue #41.4): the posts the posting provider reported
 * published to a collection (Analytics measures each of them). Posts lists those this bridge or a
 * CRM SocialPost sent; the rest were published at the provider by other means (its own app,
 * another tool), so they are on Analytics and not on Posts.
 */
export const publishedPosts = z.object({
  /** Published at the provider, as collections found them. */
  atProvider: z.number().int(),
  /** Of them, the posts listed on Posts (sent by this bridge or a CRM SocialPost). */
  onPosts: z.number().int(),
  /** Provider post ids of those published outside this bridge and the CRM. */
  elsewhere: z.array(z.string()),
  /** When a collection last read the provider's posts; null: never. */
  asOf: z.string().nullable(),
});
export type PublishedPosts = z.infer<typeof publishedPosts>;

export const listCollectionRuns = defineContract({
  method: 'get',
  path: '/analytics/runs',
  tag: 'analytics',
  summary: 'Recent collection runs, newest first, with each platform’s outcome.',
  auth: 'key',
  query: z.object({ limit: queryInt(1, 200).default(20) }),
  response: z.object({
    success: z.literal(true),
    data: z.array(collectionRun),
    /** When each metric was last written (DESIGN §6.9: each metric shows it); null: never. */
    lastCollected: z.object({
      social: z.string().nullable(),
      followers: z.string().nullable(),
      posts: z.string().nullable(),
      content: z.string().nullable(),
    }),
    /**
     * When content metrics last arrived by POST /analytics/content-ingest (spec §4.2: a
     * collection does not fetch them); null: none received yet.
     */
    contentReceived: z.string().nullable(),
    /** The published posts and how many of them Posts lists; null: Posts could not be read (no CRM answer). */
    published: publishedPosts.nullable(),
  }),
});
export type LastCollected = z.infer<typeof listCollectionRuns.response>['lastCollected'];

/** `data` of a `collection.progress` / `collection.finished` activity event. */
export const collectionProgress = z.object({
  runId: z.number(),
  phase: z.enum(['started', 'social', 'posts', 'writing', 'done']),
  done: z.number().optional(),
  total: z.number().optional(),
  status: z.enum(runStatuses).optional(),
  /** What the run waits on, while it waits (issue #40.2): the provider asked it to hold back until `until`. */
  waiting: z
    .object({ on: z.literal('postsvc'), reason: z.literal('throttled'), until: z.string() })
    .optional(),
});
export type CollectionProgress = z.infer<typeof collectionProgress>;
