import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import {
  defaultCollectionPlatforms,
  type CollectionProgress,
  type PlatformOutcome,
  type RunTrigger,
} from '../../../shared/api/analytics.js';
import { platformKeys, type PlatformKey } from '../../../shared/platforms.js';
import { AppError } from '../../kernel/app-error.js';
import { PeerError } from '../../peers/peer-error.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import type { AnalyticsRepo, FollowerCountWrite, PostSnapshotWrite, SocialMetricWrite } from './repo.js';
import { utcDay } from './dates.js';
import { judgeRun } from './outcome.js';
import type { AnalyticsSource, HistoryPost } from './provider.js';

export interface CollectorOptions {
  repo: AnalyticsRepo;
  /** null: no posting provider configured, nothing to collect from. */
  source: AnalyticsSource | null;
  activity: ActivityLog;
  logger: Logger;
  now: () => Date;
  intervalHours: number;
  /** Per-post analytics calls in flight (the source's rate limiter paces them). Default 4. */
  concurrency?: number;
  /** Published posts read per run, newest first. Default 10,000. */
  maxPosts?: number;
  /** History page size. Default 100. */
  pageSize?: number;
  /** 429s in a row on one call before giving up on it. Default 5. */
  maxRateLimitWaits?: number;
}

interface CurrentRun {
  id: number;
  startedAt: string;
  abort: AbortController;
  done: Promise<void>;
}

/** What a run has gathered so far: written at its end, or reported as far as it got if it fails. */
interface RunDraft {
  platforms: PlatformKey[];
  social: SocialMetricWrite[];
  followers: FollowerCountWrite[];
  outcomes: PlatformOutcome[];
  posts: PostSnapshotWrite[];
  postsSeen: number;
  postsFailed: number;
  /** Why the post phase stopped early, else null. */
  postsError: string | null;
}

function emptyRun(platforms: PlatformKey[]): RunDraft {
  return {
    platforms,
    social: [],
    followers: [],
    outcomes: [],
    posts: [],
    postsSeen: 0,
    postsFailed: 0,
    postsError: null,
  };
}

/** Stops the post phase: the provider is down or refuses the key. */
class PostPhaseAbort extends Error {}

const PROGRESS_EVERY_MS = 1_000;
/** Consecutive per-post failures (after the client's own retries) taken as "provider down". */
const MAX_FAILURES_IN_A_ROW = 20;

/**
 * The analytics collector (spec §1.7, §4.2; DESIGN §6.5): one run at a time, every
 * `intervalHours` and on demand, with a catch-up at start-up when the last successful run is
 * older than the interval.
 *
 * Writes: a run gathers everything in memory and writes it, with its own outcome, in ONE
 * transaction at the end. Chosen over a transaction per platform because (a) the run log and
 * the data can never disagree (a run marked succeeded has all its rows; a bridge killed
 * mid-run leaves no rows at all, its log row is marked failed at the next start and the
 * catch-up collects again), (b) a "day" spans every platform plus the post snapshots, which a
 * per-platform transaction would still leave half-written, and (c) the memory is small:
 * 10,000 posts on seven platforms are ~70,000 small rows, written in well under a second.
 */
export class Collector {
  private current: CurrentRun | null = null;
  /** Epoch ms of the timer's next run (null: no provider, no timer). */
  private nextAt: number | null = null;
  private catchUpPending = false;
  /** Linked accounts from the provider's last answer to GET /user. */
  private linked: PlatformKey[] = [];
  /** The current run's last step, said again with what it waits on while it waits. */
  private latest: {
    runId: number;
    phase: CollectionProgress['phase'];
    extra: Omit<CollectionProgress, 'runId' | 'phase'>;
  } | null = null;
  private readonly intervalMs: number;

  constructor(private readonly options: CollectorOptions) {
    this.intervalMs = options.intervalHours * 3_600_000;
  }

  get configured(): boolean {
    return this.options.source !== null;
  }

  /** The spec's four platforms plus any other account the provider reported linked. */
  plannedPlatforms(): PlatformKey[] {
    const wanted = new Set<PlatformKey>([...defaultCollectionPlatforms, ...this.linked]);
    return platformKeys.filter((key) => wanted.has(key));
  }

  running(): { id: number; startedAt: string } | null {
    return this.current ? { id: this.current.id, startedAt: this.current.startedAt } : null;
  }

  /** Marks runs a stopped bridge left `running` as failed and plans the timer (a catch-up first if overdue). */
  start(): void {
    const { repo, activity, now } = this.options;
    for (const run of repo.abandonRunning(now().toISOString())) {
      activity.record(
        'collection.finished',
        'warn',
        `collection run ${run.id} was interrupted by a stop; nothing of it was written`,
        { runId: run.id, status: 'failed', code: 'COLLECTION_FAILED' },
      );
    }
    const last = repo.lastSuccessfulRun();
    // The platforms of the last good run stand for the linked accounts until the provider is asked again.
    this.linked = platformKeys.filter((key) => last?.platforms.includes(key));
    if (!this.configured) return;
    const dueAt = last ? Date.parse(last.started_at) + this.intervalMs : now().getTime();
    this.catchUpPending = dueAt <= now().getTime();
    this.nextAt = dueAt;
  }

  /** Milliseconds until the timer's next run, for the scheduler; null without a provider. */
  timerDueInMs(): number | null {
    if (this.nextAt === null) return null;
    return Math.max(0, this.nextAt - this.options.now().getTime());
  }

  /** The timer's turn: a run (unless one is going), and the next one an interval later. */
  onTimer(): void {
    const trigger = this.catchUpPending ? 'catch-up' : 'timer';
    this.catchUpPending = false;
    this.nextAt = this.options.now().getTime() + this.intervalMs;
    if (!this.current) this.begin(trigger);
  }

  async stop(): Promise<void> {
    this.nextAt = null;
    const current = this.current;
    if (!current) return;
    current.abort.abort(new Error('the bridge is stopping'));
    await current.done;
  }

  /** Starts a run now: 409 while one is going (its id and start in details), 503 without a provider. */
  collect(trigger: RunTrigger): { runId: number; platforms: PlatformKey[] } {
    if (!this.configured) {
      throw AppError.notConfigured('the posting provider', 'POSTSVC_URL and POSTSVC_API_KEY');
    }
    const busy = this.running();
    if (busy) {
      throw AppError.conflict(`collection run ${busy.id} is already running (started ${busy.startedAt})`, {
        runId: busy.id,
        startedAt: busy.startedAt,
      });
    }
    return this.begin(trigger);
  }

  private begin(trigger: RunTrigger): { runId: number; platforms: PlatformKey[] } {
    const { repo, now } = this.options;
    const platforms = this.plannedPlatforms();
    const startedAt = now().toISOString();
    const runId = repo.startRun(trigger, startedAt, platforms);
    const abort = new AbortController();
    const current: CurrentRun = { id: runId, startedAt, abort, done: Promise.resolve() };
    this.current = current;
    this.progress(runId, 'started', `collection run ${runId} started (${trigger}): ${platforms.join(', ')}`);
    current.done = this.execute(runId, platforms, abort.signal)
      .catch((error: unknown) => this.options.logger.error({ err: error, runId }, 'collection run crashed'))
      .finally(() => {
        if (this.current === current) this.current = null;
      });
    return { runId, platforms };
  }

  /**
   * One run, in phases: the linked accounts, the social metrics, the posts, then one write of
   * everything. A crash (or the bridge stopping) writes the run's log row as far as it got.
   */
  private async execute(runId: number, planned: PlatformKey[], signal: AbortSignal): Promise<void> {
    const source = this.options.source;
    if (!source) return;
    const run = emptyRun(planned);
    try {
      run.platforms = await this.platformsToCollect(runId, source, planned, signal);
      await this.collectSocial(runId, source, run, signal);
      await this.collectPosts(runId, source, run, signal);
      this.writeRun(runId, run);
      this.finished(runId);
    } catch (error) {
      const why = signal.aborted
        ? 'interrupted: the bridge stopped before the run finished (nothing was written)'
        : `collection crashed: ${describe(error)}`;
      this.failRun(runId, run, why);
      this.finished(runId);
    }
  }

  /** Other linked accounts join the run; the spec's four are always asked for. */
  private async platformsToCollect(
    runId: number,
    source: AnalyticsSource,
    planned: PlatformKey[],
    signal: AbortSignal,
  ): Promise<PlatformKey[]> {
    try {
      this.linked = (await this.call(() => source.user(signal), signal)).activeSocialAccounts;
      return this.plannedPlatforms();
    } catch (error) {
      if (signal.aborted) throw error;
      this.options.logger.warn(
        { err: error, runId },
        'provider /user failed; collecting the planned platforms',
      );
      return planned;
    }
  }

  /** Social metrics and follower counts: one call for every platform, one outcome each. */
  private async collectSocial(
    runId: number,
    source: AnalyticsSource,
    run: RunDraft,
    signal: AbortSignal,
  ): Promise<void> {
    const { platforms } = run;
    const { now } = this.options;
    try {
      const answer = await this.call(() => source.analyticsSocial(platforms, signal), signal);
      const at = now();
      for (const platform of platforms) {
        const result = answer[platform] ?? {
          ok: false as const,
          error: 'missing from the provider answer',
        };
        if (!result.ok) {
          run.outcomes.push({ platform, status: 'failed', error: result.error, followers: null });
          continue;
        }
        const { impressions, engagement, reach, followers: count } = result.metrics;
        const day = utcDay(at);
        const collectedAt = at.toISOString();
        run.social.push({
          metric_date: day,
          platform,
          impressions: whole(impressions),
          engagement: whole(engagement),
          reach: whole(reach),
          followers: whole(count),
          collected_at: collectedAt,
        });
        run.followers.push({ date: day, platform, count: whole(count), collected_at: collectedAt });
        run.outcomes.push({ platform, status: 'ok', error: null, followers: whole(count) });
      }
    } catch (error) {
      if (signal.aborted) throw error;
      const message = describe(error);
      for (const platform of platforms)
        run.outcomes.push({ platform, status: 'failed', error: message, followers: null });
    }
    const okCount = run.outcomes.filter((o) => o.status === 'ok').length;
    this.progress(
      runId,
      'social',
      `run ${runId}: social metrics of ${okCount}/${platforms.length} platforms`,
      {
        done: okCount,
        total: platforms.length,
      },
    );
  }

  /** Post performance: every published post in the history, one analytics call each. */
  private async collectPosts(
    runId: number,
    source: AnalyticsSource,
    run: RunDraft,
    signal: AbortSignal,
  ): Promise<void> {
    let history: HistoryPost[] = [];
    try {
      history = await this.readHistory(source, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      run.postsError = `history could not be read: ${describe(error)}`;
    }
    run.postsSeen = history.length;
    if (history.length === 0) return;
    const result = await this.readPosts(runId, source, history, signal);
    run.posts.push(...result.snapshots);
    run.postsFailed = result.failed;
    run.postsError ??= result.abortedBecause;
  }

  /** Everything the run gathered and its verdict, in one transaction. */
  private writeRun(runId: number, run: RunDraft): void {
    const { repo, now } = this.options;
    const { social, followers, posts, platforms, outcomes, postsError, postsFailed } = run;
    const collectedPosts = new Set(posts.map((p) => p.postsvc_id)).size;
    const verdict = judgeRun({ outcomes, postsError, postsCollected: collectedPosts, postsFailed });
    this.progress(runId, 'writing', `run ${runId}: writing ${social.length + posts.length} rows`);
    repo.writeRun(
      runId,
      { social, followers, posts },
      {
        ...verdict,
        finished_at: now().toISOString(),
        platforms,
        outcomes,
        posts_seen: run.postsSeen,
        posts_collected: collectedPosts,
        posts_failed: postsFailed,
      },
    );
  }

  /** A run that crashed or was stopped: its log row as far as it got, no data. */
  private failRun(runId: number, run: RunDraft, error: string): void {
    const { repo, now } = this.options;
    repo.failRun(runId, {
      status: 'failed',
      finished_at: now().toISOString(),
      platforms: run.platforms,
      outcomes: run.outcomes,
      posts_seen: run.postsSeen,
      posts_collected: 0,
      posts_failed: run.postsFailed,
      error_code: 'COLLECTION_FAILED',
      error,
    });
  }

  /** Pages the provider's history of published posts, newest first, up to `maxPosts`. */
  private async readHistory(source: AnalyticsSource, signal: AbortSignal): Promise<HistoryPost[]> {
    const pageSize = this.options.pageSize ?? 100;
    const maxPosts = this.options.maxPosts ?? 10_000;
    const seen = new Set<string>();
    const all: HistoryPost[] = [];
    for (let offset = 0; all.length < maxPosts; offset += pageSize) {
      const page = await this.call(
        () => source.history({ limit: pageSize, offset, status: 'success' }, signal),
        signal,
      );
      const fresh = page.items.filter((item) => !seen.has(item.id));
      for (const item of fresh) {
        seen.add(item.id);
        if (item.status === 'success' || item.status === 'published') all.push(item);
      }
      // A short page, the advertised total, or a provider that ignores offset ends the walk.
      if (page.items.length < pageSize || fresh.length === 0) break;
      if (page.total !== null && offset + pageSize >= page.total) break;
    }
    return all.slice(0, maxPosts);
  }

  private async readPosts(
    runId: number,
    source: AnalyticsSource,
    history: HistoryPost[],
    signal: AbortSignal,
  ): Promise<{ snapshots: PostSnapshotWrite[]; failed: number; abortedBecause: string | null }> {
    const snapshots: PostSnapshotWrite[] = [];
    let next = 0;
    let done = 0;
    let failed = 0;
    let failuresInARow = 0;
    let abortedBecause: string | null = null;
    let lastProgress = Date.now();

    const readOne = async (post: HistoryPost): Promise<void> => {
      try {
        const answer = await this.call(() => source.analyticsPost(post.id, signal), signal);
        const at = this.options.now().toISOString();
        for (const [platform, result] of Object.entries(answer)) {
          if (!result?.ok) continue; // not published there (or failed there): nothing to measure
          const platformPostId = post.postIds.find((entry) => entry.platform === platform)?.id;
          snapshots.push({
            post_id: platformPostId ?? `${post.id}:${platform}`,
            platform,
            postsvc_id: post.id,
            content: post.post,
            likes: whole(result.metrics.likes),
            comments: whole(result.metrics.comments),
            shares: whole(result.metrics.shares),
            impressions: whole(result.metrics.impressions),
            collected_at: at,
          });
        }
        failuresInARow = 0;
      } catch (error) {
        if (signal.aborted) throw error;
        const status = error instanceof PeerError ? error.status : undefined;
        // Deleted since the history was read, or nothing published yet: not a failure.
        if (status === 404 || status === 400) return;
        failed++;
        failuresInARow++;
        if (status === 401 || status === 403)
          throw new PostPhaseAbort(`provider refused the key (${describe(error)})`);
        if (failuresInARow >= MAX_FAILURES_IN_A_ROW) {
          throw new PostPhaseAbort(`${failuresInARow} post reads failed in a row (last: ${describe(error)})`);
        }
      } finally {
        done++;
        if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
          lastProgress = Date.now();
          this.progress(runId, 'posts', `run ${runId}: ${done}/${history.length} posts read`, {
            done,
            total: history.length,
          });
        }
      }
    };

    const worker = async (): Promise<void> => {
      while (next < history.length && abortedBecause === null) {
        const post = history[next++];
        if (!post) return;
        try {
          await readOne(post);
        } catch (error) {
          if (error instanceof PostPhaseAbort) abortedBecause = error.message;
          else throw error;
        }
      }
    };
    const workers = Math.max(1, Math.min(this.options.concurrency ?? 4, history.length));
    await Promise.all(Array.from({ length: workers }, worker));
    this.progress(runId, 'posts', `run ${runId}: ${done}/${history.length} posts read`, {
      done,
      total: history.length,
    });
    return { snapshots, failed, abortedBecause };
  }

  /**
   * One provider call; on 429 it waits the provider's Retry-After (the client's rate limiter has
   * paused every other caller for as long) and tries again, a few times at most.
   */
  private async call<T>(send: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const maxWaits = this.options.maxRateLimitWaits ?? 5;
    for (let waits = 0; ; waits++) {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof PeerError) || error.status !== 429 || waits >= maxWaits || signal.aborted)
          throw error;
        const waitS = Math.max(1, error.details.retryAfterS ?? 1);
        this.waiting(waitS);
        await sleep(waitS * 1000, undefined, { signal });
      }
    }
  }

  private finished(runId: number): void {
    const run = this.options.repo.run(runId);
    if (!run) return;
    const level = run.status === 'succeeded' ? 'info' : run.status === 'partial' ? 'warn' : 'error';
    const summary =
      run.status === 'failed'
        ? `collection run ${runId} failed (COLLECTION_FAILED): ${run.error ?? 'unknown error'}`
        : `collection run ${runId} ${run.status}: ${run.outcomes.filter((o) => o.status === 'ok').length}/${run.platforms.length} platforms, ${run.posts_collected} posts${run.error ? ` — ${run.error}` : ''}`;
    this.options.activity.record('collection.finished', level, summary, {
      runId,
      phase: 'done',
      status: run.status,
      ...(run.error_code ? { code: run.error_code } : {}),
    });
  }

  private progress(
    runId: number,
    phase: CollectionProgress['phase'],
    message: string,
    extra: Omit<CollectionProgress, 'runId' | 'phase'> = {},
  ): void {
    this.latest = { runId, phase, extra };
    this.options.activity.record('collection.progress', 'info', message, { runId, phase, ...extra });
  }

  /**
   * The run's step again, saying what it waits on (issue #40.2): a throttled provider held a run
   * at "Starting" for minutes without a word. The next progress event says the wait is over.
   */
  private waiting(waitS: number): void {
    if (!this.latest) return;
    const { runId, phase, extra } = this.latest;
    const until = new Date(this.options.now().getTime() + waitS * 1000).toISOString();
    this.options.activity.record(
      'collection.progress',
      'info',
      `run ${runId}: waiting ${waitS} s: the posting provider asked the bridge to wait (HTTP 429)`,
      { runId, phase, ...extra, waiting: { on: 'postsvc', reason: 'throttled', until } },
    );
  }
}

const whole = (value: number): number => (Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0);

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
