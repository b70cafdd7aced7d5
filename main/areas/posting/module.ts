import { offerOf, type AreaContext, type AreaModule } from '../area.js';
import { unconfirmedPostAlarms } from './alarms.js';
import { ApiPosting } from './api-posts.js';
import { CONFIRM_POLL_MS, PostConfirmations } from './confirmations.js';
import { PostingEngine } from './engine.js';
import { bodyHash } from './keys.js';
import { ProviderPosts } from './provider-posts.js';
import { QuotaTracker } from './quota.js';
import { SocialPostJobs } from './record-job.js';
import { SocialPostRun } from './record-run.js';
import { createPostingRepo } from './repo.js';
import { postingRoutes } from './routes.js';
import { postRules } from './post-rules.js';
import { SocialPostRecords } from './social-post-record.js';
import { postsNear } from './spacing.js';
import { listWithPublished } from './published-posts.js';
import { fromLedger } from './posts-view.js';

/** After the start (and the first screens it serves): twitter-text's loading takes a core for ~0.1 s. */
const RULES_PRELOAD_DELAY_MS = 5_000;

export interface PostingTuning {
  /** How long an unconfirmed create may still appear in the provider's history (default 60 s). */
  unknownGraceMs?: number;
}

/**
 * Social posting (spec §3.4, §4.1, §6; DESIGN §6.2, §6.3, §6.9) as one engine (issue #36): the
 * engine owns the ledger's transitions, the SocialPost adapter reads and writes the CRM record,
 * and every way in — the social-* webhooks, catch-up, retries, confirmations, Sync, the dashboard
 * and API routes — goes through them; a SocialPost's triggers join its one job, decided once.
 */
export function postingArea(ctx: AreaContext, tuning: PostingTuning = {}): AreaModule {
  let areas: readonly AreaModule[] = [];
  const repo = ctx.repo(createPostingRepo);
  const quota = new QuotaTracker(repo, ctx.config, ctx.now);
  const plan = () => quota.plan();
  const client = ctx.peers.postsvc;
  const measured = () => offerOf(areas, 'measuredPosts')?.() ?? null;
  const records = ctx.peers.crm ? new SocialPostRecords(ctx.peers.crm) : null;
  const engine = client
    ? new PostingEngine({
        client,
        repo,
        now: ctx.now,
        quota,
        ...(tuning.unknownGraceMs !== undefined ? { unknownGraceMs: tuning.unknownGraceMs } : {}),
      })
    : null;
  const nearby = (at: number, exclude: { socialPostId?: string | null; id?: number }) =>
    postsNear({ repo, records }, at, exclude);
  const run =
    engine && records
      ? new SocialPostRun({
          engine,
          records,
          repo,
          activity: ctx.activity,
          quota,
          now: ctx.now,
          lateGraceMs: ctx.config.latePostGraceMinutes * 60_000,
        })
      : null;
  const jobs = new SocialPostJobs({ jobs: ctx.jobs, repo, activity: ctx.activity, engine, run });
  const withLane = ctx.jobs.withLane.bind(ctx.jobs);
  const api = engine
    ? new ApiPosting({
        engine,
        repo,
        quota,
        activity: ctx.activity,
        now: ctx.now,
        plan,
        nearby,
        clipMedia: (url) => offerOf(areas, 'clipMedia')?.(url) ?? null,
        reconcileLater: (row, delayMs) => jobs.reconcileLater(row, delayMs),
        withLane,
      })
    : null;
  const confirmations =
    client && engine
      ? new PostConfirmations({
          client,
          records,
          engine,
          repo,
          activity: ctx.activity,
          logger: ctx.logger,
          now: ctx.now,
          withLane,
        })
      : null;
  const provider =
    client && engine
      ? new ProviderPosts({
          client,
          records,
          engine,
          repo,
          activity: ctx.activity,
          // Analytics' numbers; zeros when it does not run.
          latestNumbers: (postsvcId) =>
            offerOf(areas, 'latestPostNumbers')?.(postsvcId) ?? { likes: 0, comments: 0, shares: 0 },
          now: ctx.now,
        })
      : null;

  return {
    name: 'posting',
    routes: (mount) =>
      postingRoutes(mount, ctx, {
        repo,
        records,
        engine,
        quota,
        plan,
        api,
        provider,
        confirmations,
        runAndWait: (id) => jobs.runAndWait(id, 8_000),
        measured,
      }),
    webhooks: jobs.webhookHandlers(),
    catchUp: { SocialPost: jobs.catchUpHandler() },
    offers: {
      quota: () => quota.snapshot(),
      postsContaining: (text, limit) =>
        repo.containing(text, limit).map((row) => ({
          socialPostId: row.social_post_id,
          ledgerId: row.id,
          post: row.post,
          state: row.state,
          publishAt: row.publish_at,
          platforms: row.platforms,
        })),
      productionPosts: (contentProductionId) =>
        repo
          .ofProduction(contentProductionId)
          .map((row) => fromLedger(row, repo.retriesOf(row.id), ctx.now())),
      async publishedPosts() {
        const list = await listWithPublished({ repo, records, now: ctx.now, measured }, { limit: 1000 });
        return list.published;
      },
    },
    // Posts unconfirmed 10 min after their time (DESIGN §6.9).
    alarms: (now) => unconfirmedPostAlarms(repo, now),
    meet(all) {
      areas = all;
    },
    start() {
      // Rows written before migration 025 get the hash of their text, platforms and media.
      repo.fillBodyHashes((row) =>
        bodyHash({ post: row.post, platforms: row.platforms, mediaUrls: row.media_urls }),
      );
      // The posting rules load in the background once the start is over, so a first post does not wait for them.
      setTimeout(() => {
        postRules().catch((error: unknown) => ctx.logger.warn({ err: error }, 'posting rules not loaded'));
      }, RULES_PRELOAD_DELAY_MS).unref();
      jobs.settleLeftInFlight();
      // Posts follow the provider (DESIGN §6.9): the checks that came due, looked for every few seconds.
      if (confirmations)
        ctx.scheduler.every('post confirmations', CONFIRM_POLL_MS, () => confirmations.runDue());
    },
  };
}
