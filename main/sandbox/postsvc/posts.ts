import { ALNUM, type Prng } from '../common/prng.js';
import { errorBody, errorCodes, ProviderError, type PlatformError } from './errors.js';
import { countChars, mediaKind, platformRules, type ProviderPlatform } from './platforms.js';

export type PostsvcPlan = 'free' | 'premium' | 'business';
/** Posts per UTC day (spec §8), counted by the day the post is created at the provider. */
export const planQuota: Record<PostsvcPlan, number> = { free: 10, premium: 100, business: 500 };

export type PostStatus = 'scheduled' | 'success' | 'error' | 'deleted';

export interface PostIdEntry {
  platform: ProviderPlatform;
  status: 'scheduled' | 'success' | 'error' | 'deleted';
  id?: string;
  postUrl?: string;
}

/** A post as the provider keeps it. Times are ISO 8601. */
export interface ProviderPost {
  id: string;
  refId: string;
  post: string;
  platforms: ProviderPlatform[];
  mediaUrls: string[];
  shortenLinks: boolean;
  idempotencyKey: string | null;
  status: PostStatus;
  type: 'now' | 'schedule';
  created: string;
  scheduleDate: string | null;
  publishedAt: string | null;
  postIds: PostIdEntry[];
  errors: PlatformError[];
  /** Whether it used up one of the day's posts (at least one platform accepted it). */
  countedInQuota: boolean;
}

export interface NewPost {
  post: string;
  platforms: ProviderPlatform[];
  mediaUrls: string[];
  shortenLinks: boolean;
  scheduleDate: Date | null;
  idempotencyKey: string | null;
}

/** Seeding: a post made in the past (not counted in any quota). */
export interface ImportedPost {
  post: string;
  platforms: ProviderPlatform[];
  mediaUrls?: string[];
  created: Date;
  scheduleDate?: Date;
  /** Platforms whose publishing failed, with the message. */
  failedPlatforms?: Partial<Record<ProviderPlatform, string>>;
  idempotencyKey?: string;
}

const DAY_MS = 86_400_000;

/** The provider's posts: creation with idempotency and quota, publishing when due, deletion. */
export class PostBook {
  /** The provider's persistent world (common/world.ts): every post it ever took. */
  readonly world = { posts: [] as ProviderPost[] };
  readonly #failing = new Map<ProviderPlatform, { message: string; code: number }>();
  plan: PostsvcPlan;
  readonly refId: string;
  readonly linkedPlatforms: readonly ProviderPlatform[];
  private readonly now: () => Date;
  private readonly prng: Prng;

  constructor(options: {
    now: () => Date;
    prng: Prng;
    plan: PostsvcPlan;
    refId: string;
    linkedPlatforms: readonly ProviderPlatform[];
  }) {
    this.now = options.now;
    this.prng = options.prng;
    this.plan = options.plan;
    this.refId = options.refId;
    this.linkedPlatforms = options.linkedPlatforms;
  }

  failPlatform(
    platform: ProviderPlatform,
    message: string | null,
    code: number = errorCodes.platformError,
  ): void {
    if (message === null) this.#failing.delete(platform);
    else this.#failing.set(platform, { message, code });
  }

  failingPlatforms(): Array<{ platform: ProviderPlatform; message: string; code: number }> {
    return [...this.#failing].map(([platform, failure]) => ({ platform, ...failure }));
  }

  failureOf(platform: ProviderPlatform): { message: string; code: number } | undefined {
    return this.#failing.get(platform);
  }

  /** Every post (scheduled ones that came due are published first). */
  all(): ProviderPost[] {
    this.settle();
    return this.world.posts.map((post) => structuredClone(post));
  }

  find(id: string): ProviderPost | undefined {
    this.settle();
    return this.world.posts.find((post) => post.id === id);
  }

  findByIdempotencyKey(key: string): ProviderPost | undefined {
    this.settle();
    return this.world.posts.find((post) => post.idempotencyKey === key);
  }

  quota(): { plan: PostsvcPlan; limit: number; used: number; resetsAt: string } {
    const today = this.now().toISOString().slice(0, 10);
    const used = this.world.posts.filter((p) => p.countedInQuota && p.created.slice(0, 10) === today).length;
    return {
      plan: this.plan,
      limit: planQuota[this.plan],
      used,
      resetsAt: nextUtcMidnight(this.now()).toISOString(),
    };
  }

  create(input: NewPost): ProviderPost {
    const quota = this.quota();
    if (quota.used >= quota.limit) {
      const retryAfter = Math.ceil((Date.parse(quota.resetsAt) - this.now().getTime()) / 1000);
      throw new ProviderError(
        429,
        errorBody(
          errorCodes.dailyQuota,
          `Daily post limit reached: the ${this.plan} plan allows ${quota.limit} posts per day (UTC). ` +
            `Try again after ${quota.resetsAt} or upgrade your plan.`,
        ),
        { 'Retry-After': String(retryAfter) },
      );
    }
    const now = this.now();
    const scheduled = input.scheduleDate !== null;
    const post: ProviderPost = {
      id: this.prng.chars(20, ALNUM),
      refId: this.refId,
      post: input.post,
      platforms: [...input.platforms],
      mediaUrls: [...input.mediaUrls],
      shortenLinks: input.shortenLinks,
      idempotencyKey: input.idempotencyKey,
      status: 'success',
      type: scheduled ? 'schedule' : 'now',
      created: now.toISOString(),
      scheduleDate: input.scheduleDate?.toISOString() ?? null,
      publishedAt: null,
      postIds: [],
      errors: [],
      countedInQuota: false,
    };
    for (const platform of input.platforms) {
      const rejection = this.#rejection(platform, input);
      if (rejection) {
        post.postIds.push({ platform, status: 'error' });
        post.errors.push(rejection);
      } else if (scheduled) {
        post.postIds.push({ platform, status: 'scheduled' });
      } else {
        post.postIds.push(this.#published(platform));
      }
    }
    if (!scheduled && post.postIds.some((entry) => entry.status === 'success'))
      post.publishedAt = post.created;
    post.countedInQuota = post.postIds.some((entry) => entry.status !== 'error');
    post.status = overallStatus(post);
    this.world.posts.push(post);
    return post;
  }

  import(input: ImportedPost): ProviderPost {
    const publishAt = input.scheduleDate ?? input.created;
    const post: ProviderPost = {
      id: this.prng.chars(20, ALNUM),
      refId: this.refId,
      post: input.post,
      platforms: [...input.platforms],
      mediaUrls: [...(input.mediaUrls ?? [])],
      shortenLinks: true,
      idempotencyKey: input.idempotencyKey ?? null,
      status: 'success',
      type: input.scheduleDate ? 'schedule' : 'now',
      created: input.created.toISOString(),
      scheduleDate: input.scheduleDate?.toISOString() ?? null,
      publishedAt: null,
      postIds: [],
      errors: [],
      countedInQuota: false,
    };
    const due = publishAt.getTime() <= this.now().getTime();
    for (const platform of input.platforms) {
      const failure = input.failedPlatforms?.[platform];
      if (failure) {
        post.postIds.push({ platform, status: 'error' });
        post.errors.push({
          action: 'post',
          status: 'error',
          platform,
          code: errorCodes.platformError,
          message: failure,
        });
      } else {
        post.postIds.push(due ? this.#published(platform) : { platform, status: 'scheduled' });
      }
    }
    if (due && post.postIds.some((entry) => entry.status === 'success'))
      post.publishedAt = publishAt.toISOString();
    post.status = overallStatus(post);
    this.world.posts.push(post);
    return structuredClone(post);
  }

  /**
   * PATCH /post (Ayrshare's "update a post", Premium plans and up): a post still waiting for its
   * scheduleDate gets a new one, in place (same id, no quota); a date in the past sends it at once.
   * Refused on the free plan, for an unknown id, and once the post is out (or was never scheduled).
   */
  move(id: string, scheduleDate: Date): ProviderPost {
    if (this.plan === 'free') {
      throw new ProviderError(
        403,
        errorBody(
          errorCodes.planRequired,
          'Updating a post requires a Premium, Business or Enterprise plan. Delete the post and post it again instead.',
        ),
      );
    }
    const post = this.find(id);
    if (!post || post.status === 'deleted') {
      throw new ProviderError(404, errorBody(errorCodes.postNotFound, `Post id not found: ${id}`));
    }
    if (post.type !== 'schedule' || !post.postIds.some((entry) => entry.status === 'scheduled')) {
      throw new ProviderError(
        400,
        errorBody(
          errorCodes.postNotPending,
          `Post ${id} is not pending (status ${post.status}): only a scheduled post that has not been sent can be updated.`,
        ),
      );
    }
    post.scheduleDate = scheduleDate.toISOString();
    // A date in the past sends it now: the next read finds it due.
    this.settle();
    return structuredClone(post);
  }

  /** Cancels a scheduled post or takes a published one down. */
  remove(id: string): ProviderPost {
    const post = this.find(id);
    if (!post || post.status === 'deleted') {
      throw new ProviderError(404, errorBody(errorCodes.postNotFound, `Post id not found: ${id}`));
    }
    post.status = 'deleted';
    for (const entry of post.postIds) if (entry.status !== 'error') entry.status = 'deleted';
    return post;
  }

  /** Scheduled posts whose time has come are published (checked on every read). */
  settle(): void {
    const now = this.now().getTime();
    for (const post of this.world.posts) {
      if (post.status === 'deleted' || post.scheduleDate === null || Date.parse(post.scheduleDate) > now)
        continue;
      let changed = false;
      for (const [i, entry] of post.postIds.entries()) {
        if (entry.status !== 'scheduled') continue;
        changed = true;
        const failure = this.#failing.get(entry.platform);
        if (failure) {
          post.postIds[i] = { platform: entry.platform, status: 'error' };
          post.errors.push({ action: 'post', status: 'error', platform: entry.platform, ...failure });
        } else {
          post.postIds[i] = this.#published(entry.platform);
        }
      }
      if (!changed) continue;
      if (post.postIds.some((entry) => entry.status === 'success')) post.publishedAt = post.scheduleDate;
      post.status = overallStatus(post);
    }
  }

  #rejection(platform: ProviderPlatform, input: NewPost): PlatformError | undefined {
    const fail = (code: number, message: string): PlatformError => ({
      action: 'post',
      status: 'error',
      platform,
      code,
      message,
    });
    if (!this.linkedPlatforms.includes(platform)) {
      return fail(errorCodes.platformNotLinked, `${platform} is not linked to this profile.`);
    }
    const failure = this.#failing.get(platform);
    if (failure) return fail(failure.code, failure.message);
    const rules = platformRules[platform];
    const length = countChars(platform, input.post);
    if (length > rules.maxChars) {
      return fail(
        errorCodes.postTooLong,
        `Post is ${length} characters; ${platform} allows ${rules.maxChars}.`,
      );
    }
    // A real platform fetches the media and knows its kind; the sandbox only has the extension,
    // so a URL without a telling one ('other', e.g. a CDN id) is given the benefit of the doubt.
    const kinds = input.mediaUrls.map(mediaKind);
    const fits = (kind: ReturnType<typeof mediaKind>) =>
      kind === 'other' || (rules.requires === 'media' ? true : kind === rules.requires);
    const missing = rules.requires !== undefined && !kinds.some(fits);
    if (missing) {
      const what = rules.requires === 'media' ? 'an image or a video' : `a ${rules.requires}`;
      return fail(errorCodes.mediaRequired, `${platform} requires ${what} in mediaUrls.`);
    }
    return undefined;
  }

  #published(platform: ProviderPlatform): PostIdEntry {
    const id =
      platform === 'microblog' ? `1${this.prng.chars(18, '0123456789')}` : this.prng.chars(12, ALNUM);
    return { platform, status: 'success', id, postUrl: platformRules[platform].postUrl(id) };
  }
}

function overallStatus(post: ProviderPost): PostStatus {
  if (post.status === 'deleted') return 'deleted';
  if (post.postIds.some((entry) => entry.status === 'error')) return 'error';
  if (post.postIds.some((entry) => entry.status === 'scheduled')) return 'scheduled';
  return 'success';
}

function nextUtcMidnight(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}
