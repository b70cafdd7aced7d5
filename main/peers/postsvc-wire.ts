import { z } from 'zod';

/**
 * The posting provider's answers as they come over the wire (DESIGN §5.2, Ayrshare-shaped):
 * loose objects (the provider adds fields), defaults where it omits empty lists. The client in
 * postsvc.ts makes the calls and parses with these.
 */

const platformError = z.looseObject({
  platform: z.string().optional(),
  code: z.number().optional(),
  message: z.string().optional(),
});
export type ProviderPlatformError = z.infer<typeof platformError>;

const postIdEntry = z.looseObject({
  platform: z.string(),
  status: z.string(),
  id: z.string().nullish(),
  postUrl: z.string().nullish(),
});
export type ProviderPostId = z.infer<typeof postIdEntry>;

/** POST /post. */
export const postAnswer = z.looseObject({
  status: z.string(),
  id: z.string().min(1).optional(),
  postIds: z.array(postIdEntry).default([]),
  errors: z.array(platformError).default([]),
  scheduleDate: z.string().nullish(),
});

/** Any failed call's body; a partial failure of POST /post also names the post it created. */
export const errorAnswer = z.looseObject({
  status: z.literal('error'),
  code: z.number().optional(),
  message: z.string().optional(),
  errors: z.array(platformError).optional(),
  id: z.string().optional(),
  postIds: z.array(postIdEntry).optional(),
});

const historyItem = z.looseObject({
  id: z.string().min(1),
  post: z.string().default(''),
  platforms: z.array(z.string()).default([]),
  postIds: z.array(postIdEntry).default([]),
  errors: z.array(platformError).default([]),
  status: z.string(),
  type: z.string().optional(),
  created: z.string().nullish(),
  scheduleDate: z.string().nullish(),
  publishedAt: z.string().nullish(),
  mediaUrls: z.array(z.string()).optional(),
  idempotencyKey: z.string().nullish(),
});
export type ProviderHistoryItem = z.infer<typeof historyItem>;

/** GET /post/{id}: one post as in history (DESIGN §5.2). */
export const postItemAnswer = historyItem;

/** GET /history, one page. */
export const historyAnswer = z.looseObject({ history: z.array(historyItem), total: z.number().optional() });

/** POST /analytics/social and /analytics/post: one entry per provider platform name. */
export const analyticsAnswer = z.record(z.string(), z.unknown());

const num = z.number().catch(0).default(0);
export const socialMetrics = z.looseObject({
  followers: num,
  following: num,
  impressions: num,
  engagement: num,
  reach: num,
  engagementRate: num,
});
export type SocialMetrics = z.infer<typeof socialMetrics>;
const platformFailure = z.looseObject({
  status: z.literal('error'),
  code: z.number().optional(),
  message: z.string().optional(),
});

export const postMetrics = z.looseObject({
  likes: num,
  comments: num,
  shares: num,
  impressions: num,
  clicks: num,
});
export type PostMetrics = z.infer<typeof postMetrics>;

/** GET /media/uploadUrl: both URLs absolute http(s), the MIME type to PUT with. */
export const uploadUrlAnswer = z.looseObject({
  uploadUrl: z.url({ protocol: /^https?$/ }),
  accessUrl: z.url({ protocol: /^https?$/ }),
  contentType: z.string().min(1),
});
export type MediaUploadUrl = z.infer<typeof uploadUrlAnswer>;

/** GET /user. */
export const userAnswer = z.looseObject({ activeSocialAccounts: z.array(z.string()).default([]) });

/** One platform's entry of an analytics answer: its metrics, or why the provider could not give them. */
export function perPlatform<S extends z.ZodType>(
  value: unknown,
  metrics: S,
): { ok: true; metrics: z.output<S> } | { ok: false; error: string } {
  const failure = platformFailure.safeParse(value);
  if (failure.success)
    return { ok: false, error: failure.data.message ?? `provider error ${failure.data.code ?? ''}`.trim() };
  const analytics = z.looseObject({ analytics: z.unknown() }).safeParse(value);
  const parsed = analytics.success ? metrics.safeParse(analytics.data.analytics) : null;
  if (parsed?.success) return { ok: true, metrics: parsed.data };
  return { ok: false, error: 'no analytics in the provider answer' };
}
