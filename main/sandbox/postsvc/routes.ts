import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { postAnalytics, socialAnalytics } from './analytics.js';
import { errorBody, errorCodes, ProviderError } from './errors.js';
import { isProviderPlatform, providerPlatforms, type ProviderPlatform } from './platforms.js';
import type { MediaStore } from './media.js';
import type { PostBook, ProviderPost } from './posts.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const MAX_HISTORY = 1000;

export interface PostsvcContext {
  book: PostBook;
  now: () => Date;
  media: MediaStore;
}

// Other Ayrshare fields (hashtags, profileKeys, ...) are accepted and ignored.
const postBody = z.looseObject({
  post: z.string().trim().min(1, 'post text is required'),
  platforms: z.array(z.string()).min(1, 'platforms must list at least one platform'),
  scheduleDate: z.string().optional(),
  mediaUrls: z.array(z.string()).optional(),
  shortenLinks: z.boolean().optional(),
  idempotencyKey: z.string().min(1).max(256).optional(),
});
const deleteBody = z.looseObject({ id: z.string().min(1, 'id is required') });
const moveBody = z.looseObject({ id: z.string().min(1, 'id is required'), scheduleDate: z.string() });
const analyticsSocialBody = z.looseObject({ platforms: z.array(z.string()).min(1) });
const analyticsPostBody = z.looseObject({ id: z.string().min(1) });

/** The provider's API (DESIGN §5.2), Ayrshare-shaped. Auth is applied before this router. */
export function postsvcRouter(ctx: PostsvcContext): Router {
  const { book, now } = ctx;
  const router = express.Router();
  router.use(express.json({ limit: '5mb' }));

  router.post('/post', (req, res) => {
    const body = parse(postBody, req.body);
    const platforms = platformList(body.platforms);
    // A repeated key is the same post: answered before anything else can fail (its date may have passed).
    const earlier = body.idempotencyKey ? book.findByIdempotencyKey(body.idempotencyKey) : undefined;
    if (earlier) {
      sendPost(res, earlier);
      return;
    }
    const scheduleDate = body.scheduleDate === undefined ? null : futureDate(body.scheduleDate, now());
    const mediaUrls = (body.mediaUrls ?? []).map(mediaUrl);
    const post = book.create({
      post: body.post,
      platforms,
      mediaUrls,
      shortenLinks: body.shortenLinks ?? true,
      scheduleDate,
      idempotencyKey: body.idempotencyKey ?? null,
    });
    sendPost(res, post);
  });

  router.patch('/post', (req, res) => {
    const { id, scheduleDate } = parse(moveBody, req.body);
    const post = book.move(id, isoDate(scheduleDate));
    res.json({
      status: 'success',
      id: post.id,
      refId: post.refId,
      scheduleDate: post.scheduleDate,
      publishedAt: post.publishedAt,
      postIds: post.postIds,
    });
  });

  router.delete('/post', (req, res) => {
    const { id } = parse(deleteBody, req.body);
    const post = book.remove(id);
    res.json({ status: 'success', id: post.id, refId: post.refId });
  });

  // One post as history shows it, by id (DESIGN §5.2): for due posts the newest 1,000 no longer reach.
  router.get('/post/:id', (req, res) => {
    const post = book.find(req.params.id);
    if (!post)
      throw new ProviderError(404, errorBody(errorCodes.postNotFound, `Post id not found: ${req.params.id}`));
    res.json(historyItem(post));
  });

  router.get('/history', (req, res) => {
    const query = new URLSearchParams(req.url.split('?')[1] ?? '');
    const limit = intQuery(query.get('limit'), 'limit', 100);
    // Paging by offset is the sandbox's assumption: Ayrshare documents only limit (lastRecords/lastDays).
    const offset = intQuery(query.get('offset'), 'offset', 0, 0);
    if (limit > MAX_HISTORY) badRequest(`limit must be between 1 and ${MAX_HISTORY}`);
    const status = query.get('status');
    if (status !== null && !['scheduled', 'success', 'error', 'deleted'].includes(status)) {
      badRequest(`status must be one of scheduled, success, error, deleted`);
    }
    const wanted = query
      .getAll('platforms')
      .flatMap((value) => value.split(','))
      .filter((value) => value !== '');
    const platforms = wanted.length > 0 ? platformList(wanted) : null;
    // Newest first by creation; among equal times, the later-made post first.
    const matching = book
      .all()
      .map((post, seq) => ({ post, seq }))
      .filter(({ post }) => status === null || post.status === status)
      .filter(({ post }) => platforms === null || post.platforms.some((p) => platforms.includes(p)))
      .sort((a, b) => Date.parse(b.post.created) - Date.parse(a.post.created) || b.seq - a.seq)
      .map(({ post }) => post);
    const page = matching.slice(offset, offset + limit);
    res.json({
      status: 'success',
      history: page.map(historyItem),
      count: page.length,
      total: matching.length,
      lastUpdated: now().toISOString(),
    });
  });

  router.post('/analytics/social', (req, res) => {
    const platforms = platformList(parse(analyticsSocialBody, req.body).platforms);
    const out: Record<string, unknown> = {};
    let failures = 0;
    for (const platform of platforms) {
      const failure = book.failureOf(platform);
      if (!book.linkedPlatforms.includes(platform)) {
        failures++;
        out[platform] = {
          status: 'error',
          code: errorCodes.platformNotLinked,
          message: `${platform} is not linked.`,
        };
      } else if (failure) {
        failures++;
        out[platform] = { status: 'error', ...failure };
      } else {
        out[platform] = { analytics: socialAnalytics(platform, now()) };
      }
    }
    res.json({ status: failures === platforms.length ? 'error' : 'success', ...out });
  });

  router.post('/analytics/post', (req, res) => {
    const { id } = parse(analyticsPostBody, req.body);
    const post = book.find(id);
    if (!post || post.status === 'deleted') {
      throw new ProviderError(404, errorBody(errorCodes.postNotFound, `Post id not found: ${id}`));
    }
    const out: Record<string, unknown> = {};
    for (const entry of post.postIds) {
      const failure = book.failureOf(entry.platform);
      if (entry.status === 'success' && !failure && post.publishedAt) {
        out[entry.platform] = {
          id: entry.id,
          postUrl: entry.postUrl,
          analytics: postAnalytics(post.id, entry.platform, new Date(post.publishedAt), now()),
        };
      } else if (entry.status === 'scheduled') {
        out[entry.platform] = {
          status: 'error',
          code: errorCodes.postNotPublished,
          message: 'Not published yet.',
        };
      } else {
        const error = post.errors.find((e) => e.platform === entry.platform);
        out[entry.platform] = {
          status: 'error',
          ...(failure ?? { code: error?.code, message: error?.message }),
        };
      }
    }
    if (!Object.values(out).some((value) => 'analytics' in (value as object))) {
      throw new ProviderError(
        400,
        errorBody(
          errorCodes.postNotPublished,
          `Post ${id} has no published platform to read analytics from.`,
        ),
      );
    }
    res.json({ status: 'success', id: post.id, ...out });
  });

  router.get('/media/uploadUrl', (req, res) => {
    res.json(ctx.media.issue(new URLSearchParams(req.url.split('?')[1] ?? '')));
  });

  router.get('/user', (_req, res) => {
    const quota = book.quota();
    res.json({
      status: 'success',
      activeSocialAccounts: [...book.linkedPlatforms],
      email: 'studio@studiohour.example',
      title: 'The Studio Hour (sandbox)',
      refId: book.refId,
      plan: quota.plan,
      dailyPostQuota: quota.limit,
      dailyPostCount: quota.used,
    });
  });

  router.use((req) => {
    throw new ProviderError(
      404,
      errorBody(errorCodes.missingParameters, `No route ${req.method} ${req.path}`),
    );
  });
  router.use(providerErrorHandler);
  return router;
}

function sendPost(res: Response, post: ProviderPost): void {
  const accepted = post.postIds.filter((entry) => entry.status !== 'error');
  // All platforms refused: 400. Some refused: 200 with status "error" (check both, DESIGN §5.2).
  res.status(accepted.length === 0 && post.errors.length > 0 ? 400 : 200).json({
    status: post.status,
    id: post.id,
    refId: post.refId,
    post: post.post,
    postIds: accepted,
    errors: post.errors,
    ...(post.scheduleDate ? { scheduleDate: post.scheduleDate } : {}),
    ...(post.idempotencyKey ? { idempotencyKey: post.idempotencyKey } : {}),
  });
}

function historyItem(post: ProviderPost) {
  return {
    id: post.id,
    post: post.post,
    platforms: post.platforms,
    postIds: post.postIds,
    errors: post.errors,
    status: post.status,
    type: post.type,
    created: post.created,
    scheduleDate: post.scheduleDate,
    publishedAt: post.publishedAt,
    mediaUrls: post.mediaUrls,
    // Not documented for the real provider; the sandbox returns it to help reconciliation.
    idempotencyKey: post.idempotencyKey,
  };
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
    badRequest(`Missing or incorrect parameters: ${message}`);
  }
  return (parsed as { data: T }).data;
}

function badRequest(message: string): never {
  throw new ProviderError(400, errorBody(errorCodes.missingParameters, message));
}

function platformList(values: string[]): ProviderPlatform[] {
  const unknown = values.filter((value) => !isProviderPlatform(value));
  if (unknown.length > 0) {
    badRequest(
      `Invalid platform(s): ${unknown.join(', ')}. Valid platforms: ${providerPlatforms.join(', ')}`,
    );
  }
  return [...new Set(values as ProviderPlatform[])];
}

function isoDate(value: string): Date {
  if (!ISO_8601.test(value) || Number.isNaN(Date.parse(value))) {
    badRequest(`scheduleDate must be ISO 8601 with a time zone, e.g. 2026-07-08T12:30:00Z (got "${value}")`);
  }
  return new Date(value);
}

function futureDate(value: string, now: Date): Date {
  const date = isoDate(value);
  if (date.getTime() <= now.getTime()) {
    throw new ProviderError(
      400,
      errorBody(
        errorCodes.scheduleDateInPast,
        `scheduleDate ${value} is in the past (now ${now.toISOString()}).`,
      ),
    );
  }
  return date;
}

/** Hosts ending in `.invalid` (RFC 2606) stand for media the provider cannot fetch. */
function mediaUrl(value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    badRequest(`mediaUrls: "${value}" is not an http(s) URL`);
  }
  if (new URL(value).hostname.endsWith('.invalid')) {
    throw new ProviderError(
      400,
      errorBody(errorCodes.mediaUnreachable, `Media URL is not reachable: ${value}`),
    );
  }
  return value;
}

function intQuery(value: string | null, name: string, fallback: number, min = 1): number {
  if (value === null || value === '') return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) badRequest(`${name} must be an integer >= ${min}`);
  return n;
}

export function providerErrorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (err instanceof ProviderError) {
    res.status(err.httpStatus).set(err.headers).json(err.body);
    return;
  }
  const parseFailed =
    typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed';
  if (parseFailed) {
    res.status(400).json(errorBody(errorCodes.missingParameters, 'Body is not valid JSON'));
    return;
  }
  console.error('[sandbox postsvc]', err);
  res.status(500).json(errorBody(500, 'Internal error'));
}
