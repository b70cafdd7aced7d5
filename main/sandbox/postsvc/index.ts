import { randomInt } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { startPeer, type ControlKeyOption, type SandboxPeerBase } from '../common/peer.js';
import { ALNUM, createPrng } from '../common/prng.js';
import { TimerSet } from '../common/timers.js';
import type { HasWorld } from '../common/world.js';
import { errorBody, errorCodes } from './errors.js';
import { providerPlatforms, type ProviderPlatform } from './platforms.js';
import { PostBook, type ImportedPost, type PostsvcPlan, type ProviderPost } from './posts.js';
import { FILES_PREFIX, MediaStore, PRESIGNED_PREFIX, type StoredMedia } from './media.js';
import { MinuteWindow } from './rate-limit.js';
import { postsvcRouter } from './routes.js';

export interface SandboxPostsvcOptions extends ControlKeyOption {
  apiKey?: string;
  /** Posts per UTC day: free 10, premium 100, business 500. Default free (as the bridge's default). */
  plan?: PostsvcPlan;
  /** Requests per sliding minute before 429 (default 600). */
  rateLimitPerMinute?: number;
  /** 429s in one UTC day after which the profile is suspended (403), as the provider does (default 1000). */
  suspendAfter429s?: number;
  /** Platforms linked to the profile (default: all seven keys). */
  activeSocialAccounts?: ProviderPlatform[];
  now?: () => Date;
  seed?: number;
}

export interface ProviderCall {
  method: string;
  path: string;
  status: number;
  at: string;
}

export interface SandboxPostsvc extends SandboxPeerBase, HasWorld {
  readonly apiKey: string;
  /** Every post, scheduled ones that came due published first. */
  posts(): ProviderPost[];
  /** Requests received (control routes excluded), optionally only those under a path and of a method. */
  callCount(pathPrefix?: string, method?: string): number;
  calls(): ProviderCall[];
  /** Makes a platform fail (posting, publishing when due, analytics) with this message; null heals it. */
  failPlatform(platform: ProviderPlatform, message: string | null, code?: number): void;
  setPlan(plan: PostsvcPlan): void;
  quota(): { plan: PostsvcPlan; limit: number; used: number; resetsAt: string };
  /** Seeding: a post made in the past (published, or scheduled if its date is still ahead). */
  importPost(post: ImportedPost): ProviderPost;
  /** The media uploaded to the store (GET /media/uploadUrl, then the presigned PUT). */
  media(): StoredMedia[];
  /** The bytes an access URL serves; null when nothing was uploaded to it. */
  mediaBytes(accessUrl: string): Buffer | null;
}

const failPlatformBody = z.strictObject({
  platform: z.enum(providerPlatforms),
  message: z.string().min(1).nullable(),
  code: z.number().int().optional(),
});
const planBody = z.strictObject({ plan: z.enum(['free', 'premium', 'business']) });

/** A simulated posting provider (DESIGN §5.2, Ayrshare-shaped) on 127.0.0.1 with an OS-chosen port. */
export async function startSandboxPostsvc(options: SandboxPostsvcOptions = {}): Promise<SandboxPostsvc> {
  const now = options.now ?? (() => new Date());
  const prng = createPrng(options.seed ?? randomInt(2 ** 31));
  const apiKey = options.apiKey ?? `postsvc-${prng.chars(24, ALNUM)}`;
  const book = new PostBook({
    now,
    prng,
    plan: options.plan ?? 'free',
    refId: prng.chars(40, '0123456789abcdef'),
    linkedPlatforms: options.activeSocialAccounts ?? [...providerPlatforms],
  });
  const timers = new TimerSet();
  const calls: ProviderCall[] = [];
  const limit = options.rateLimitPerMinute ?? 600;
  const window = new MinuteWindow(limit, now);
  const suspendAfter = options.suspendAfter429s ?? 1000;
  const tooMany = { day: '', count: 0 };
  let baseUrl = '';
  const media = new MediaStore({ baseUrl: () => baseUrl, now, plan: () => book.plan });
  // The store's bucket is not the provider's API: no key, no rate limit (as S3 behind Ayrshare).
  const inBucket = (path: string) => path.startsWith(PRESIGNED_PREFIX) || path.startsWith(FILES_PREFIX);

  const recordCall: RequestHandler = (req, res, next) => {
    if (req.path.startsWith('/__sandbox')) return next();
    const call: ProviderCall = { method: req.method, path: req.path, status: 0, at: now().toISOString() };
    calls.push(call);
    res.on('finish', () => {
      call.status = res.statusCode;
      if (res.statusCode !== 429) return;
      const day = now().toISOString().slice(0, 10);
      if (tooMany.day !== day) Object.assign(tooMany, { day, count: 0 });
      tooMany.count++;
    });
    next();
  };

  const rateLimit: RequestHandler = (req, res, next) => {
    if (req.path.startsWith('/__sandbox') || inBucket(req.path)) return next();
    if (tooMany.day === now().toISOString().slice(0, 10) && tooMany.count >= suspendAfter) {
      res
        .status(403)
        .json(
          errorBody(
            errorCodes.profileSuspended,
            `Profile suspended: ${tooMany.count} rate-limited requests today.`,
          ),
        );
      return;
    }
    const hit = window.hit();
    res.set({ 'x-ratelimit-max': String(limit), 'x-ratelimit-count': String(hit.count) });
    if (!hit.allowed) {
      res
        .status(429)
        .set('Retry-After', String(hit.retryAfterS))
        .json(
          errorBody(
            errorCodes.rateLimited,
            `Too many requests: ${limit} per minute. Retry after ${hit.retryAfterS} s.`,
          ),
        );
      return;
    }
    next();
  };

  const auth: RequestHandler = (req: Request, res: Response, next) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.get('Authorization') ?? '')?.[1];
    if (token === apiKey) return next();
    res
      .status(401)
      .json(errorBody(errorCodes.apiKeyInvalid, 'API Key not valid. Please check your API Key.'));
  };

  const peer = await startPeer(timers, {
    controlKey: options.controlKey,
    beforeFaults: [recordCall, rateLimit],
    routes: (app) => {
      app.use(media.bucketRouter());
      app.use(auth);
      app.use(postsvcRouter({ book, now, media }));
    },
    control: (router) => {
      router.get('/posts', (_req, res) => {
        res.json({ posts: book.all() });
      });
      router.get('/media', (_req, res) => {
        res.json({ media: media.list() });
      });
      router.get('/calls', (_req, res) => {
        res.json({ calls });
      });
      router.post('/fail-platform', (req, res) => {
        const parsed = failPlatformBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        book.failPlatform(parsed.data.platform, parsed.data.message, parsed.data.code);
        res.json({ failing: book.failingPlatforms() });
      });
      router.post('/plan', (req, res) => {
        const parsed = planBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        book.plan = parsed.data.plan;
        res.json({ quota: book.quota() });
      });
    },
    state: () => ({
      peer: 'postsvc',
      quota: book.quota(),
      rateLimitPerMinute: limit,
      failing: book.failingPlatforms(),
      posts: book.all().length,
      calls: calls.length,
      media: media.list().length,
    }),
  });
  baseUrl = peer.url;

  return {
    ...peer,
    // The posts (quota is counted from them); failing platforms and the call log are the runtime's.
    world: book.world,
    apiKey,
    posts: () => book.all(),
    callCount: (pathPrefix, method) =>
      calls.filter(
        (call) =>
          (pathPrefix === undefined || call.path.startsWith(pathPrefix)) &&
          (method === undefined || call.method === method.toUpperCase()),
      ).length,
    calls: () => calls.map((call) => ({ ...call })),
    failPlatform: (platform, message, code) => book.failPlatform(platform, message, code),
    setPlan: (plan) => {
      book.plan = plan;
    },
    quota: () => book.quota(),
    importPost: (post) => book.import(post),
    media: () => media.list(),
    mediaBytes: (accessUrl) => media.bytesOf(accessUrl),
  };
}

export type { PostsvcPlan, ProviderPost, ImportedPost } from './posts.js';
export type { StoredMedia } from './media.js';
export type { ProviderPlatform } from './platforms.js';
export { errorCodes as postsvcErrorCodes } from './errors.js';
export { socialMetricsHistory } from './analytics.js';
