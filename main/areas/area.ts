import type { GroupCommit } from '../kernel/commit-group.js';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { RouteContract } from '../../shared/api/contract.js';
import type { ItemOutcome, WebhookEvent, WebhookItem } from '../../shared/api/webhooks.js';
import type { Alarm, CatchUpStatus, HealthResponse, PeerHealth } from '../../shared/api/health.js';
import type { PublishedPosts } from '../../shared/api/analytics.js';
import type { PostView } from '../../shared/api/posting.js';
import type { RecorderTake } from '../../shared/api/recorder.js';
import type {
  ContentMetricPoint,
  GuestWorkflowState,
  ProductionAnalysis,
  StageEntry,
} from '../../shared/api/productions.js';
import type { RenderRecord } from '../../shared/api/renders.js';
import type { Caption } from '../../shared/caption-rules.js';
import type { BridgeConfig } from '../config/config.js';
import type { ActivityLog } from '../kernel/activity/activity-log.js';
import type { Clock } from '../kernel/clock.js';
import type { Db, Transaction } from '../kernel/db.js';
import type { JobQueue } from '../kernel/jobs/queue.js';
import type { Scheduler } from '../kernel/scheduler.js';
import type { CrmEntity } from '../peers/crm.js';
import type { Peers } from '../peers/index.js';

/**
 * The contract between the composition root (app.ts), the areas and http/: what an area is
 * given (AreaContext) and what it gives back (AreaModule). Areas import this file, kernel/,
 * peers/, config types and shared/, never http/, sandbox/ or another area's internals.
 */

/** What every area gets. No raw db handle (an area opens its own repo), no config mutation, no sandbox. */
export interface AreaContext {
  now: Clock;
  logger: Logger;
  activity: ActivityLog;
  jobs: JobQueue;
  scheduler: Scheduler;
  /** One transaction across repos (intake: the delivery and its jobs land together). */
  transaction: Transaction;
  /** Writes that must be on disk before an answer, committed with those of the same event-loop turn. */
  groupCommit: GroupCommit;
  /** The area's repo over the bridge database: `ctx.repo(createPostingRepo)`. */
  repo<R>(create: (db: Db) => R): R;
  /** Every peer client, built once for the whole bridge (null when not configured). */
  peers: Peers;
  config: Readonly<BridgeConfig>;
}

/**
 * What an area gives the bridge; the root loops over them all. Jobs and periodic tasks it
 * registers on ctx.jobs and ctx.scheduler.
 */
export interface AreaModule {
  name: string;
  routes?(mount: Mount): void;
  /** What this area does with each CRM item of the events it owns (the webhooks area runs them). */
  webhooks?: Partial<Record<WebhookEvent, WebhookItemHandler | RecordJobHandler>>;
  /** How CRM catch-up (DESIGN §6.9) hands this area the records of the entities it owns. */
  catchUp?: Partial<Record<CrmEntity, CatchUpHandler>>;
  /** Told of every write-back to a CRM record, by whichever area made it (the webhooks area's marks). */
  onCrmWrite?(entity: string, id: string): void;
  /** This area's overdue work as of `now` (DESIGN §6.9), for /health. */
  alarms?(now: Date): Alarm[];
  /** What this area tells the others and /health (each offer has one area that gives it). */
  offers?: Partial<AreaOffers>;
  /**
   * Called once every area is built, before any request or start: takes what this area uses of
   * the others (their offers, handlers, alarms). Only running areas are among them.
   */
  meet?(areas: readonly AreaModule[]): void;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/** What areas offer one another (AreaModule.offers), named once here; read with `offerOf`. */
export interface AreaOffers {
  /** Posting: today's quota, for /health. */
  quota(): HealthResponse['quota'];
  /** Analytics: the last collection run, for /health. */
  lastCollection(): HealthResponse['lastCollection'];
  /** Webhooks: the last CRM catch-up, for /health and the Overview. */
  lastCatchUp(): CatchUpStatus | null;
  /** Analytics: a provider post's latest collected likes, comments and shares (posting's history view). */
  latestPostNumbers(postsvcId: string): { likes: number; comments: number; shares: number };
  /** Analytics: the provider's published posts as collections measured them (issue #41.4). */
  measuredPosts(): { postsvcIds: string[]; asOf: string | null };
  /** Posting: the published posts and how many of them Posts lists; null when Posts cannot say (no CRM answer). */
  publishedPosts(): Promise<PublishedPosts | null>;
  /** Recorder: OBS's state from the recorder's connection, for /health; null when no OBS is configured. */
  recorderPeer(): RecorderPeerReading | null;
  /** Recorder: a take with its marks (clips pins clips on them); null when unknown. */
  take(id: number): RecorderTake | null;
  /** Recorder: takes whose name contains `text` (a space also matches `_`), newest first, for search. */
  takesNamed(text: string, limit: number): RecorderTake[];
  /** Posting: the posts of the ledger whose text contains `text`, newest first, for search. */
  postsContaining(text: string, limit: number): LedgerPostFound[];
  /** Posting: the dashboard's posts of a production (the ledger's; the CRM's are its SocialPosts), by time (issue #44.2). */
  productionPosts(contentProductionId: string): PostView[];
  /** Broadcasts: reads the host now rather than at the next tick (something outside the bridge took one live). */
  syncBroadcastsNow(): Promise<void>;
  /** Clips: suggestion `n` of an analysis as reviewed, for the renders area; throws the clips routes' 404s. */
  clipToRender(analysisId: string, n: number): ClipToRender;
  /** Clips: keeps the analysis at least until `until` (ISO): analyses with renders outlive their 30 days. */
  keepAnalysisUntil(analysisId: string, until: string): void;
  /** Renders: what a clip's media URL at the provider is (made ready), for posting's checks; null: not one of ours. */
  clipMedia(accessUrl: string): ClipMedia | null;
  /** Recorder: the takes named from a production, oldest first, with their marks (issue #42). */
  productionTakes(contentProductionId: string): RecorderTake[];
  /** Clips: the analyses kept for a production, newest first. */
  productionAnalyses(contentProductionId: string): ProductionAnalysis[];
  /** Renders: the renders of these analyses, newest first, a running one with its progress. */
  rendersOf(analysisIds: readonly string[]): RenderRecord[];
  /** Guests: a content record's stage history as the bridge recorded it, oldest first. */
  contentStageHistory(contentId: string): StageEntry[];
  /** Guests: a guest's latest automation workflow run; null when none ran. */
  latestGuestWorkflow(guestId: string): GuestWorkflowState;
  /** Analytics: a content record's collected metrics from `since` (ISO), oldest first. */
  contentMetricsOf(contentId: string, since: string): ContentMetricPoint[];
}

/** A rendered clip's file at the provider's media store (issue #44.1): until when it is served, how long, which picture. */
export interface ClipMedia {
  expiresAt: string;
  durationS: number;
  /** 9:16, 1:1 or 16:9; null for the thumbnail. */
  ratio: '9:16' | '1:1' | '16:9' | null;
}

/** A post as the posting ledger holds it (search): its CRM record when it has one, its text and state. */
export interface LedgerPostFound {
  /** The CRM SocialPost; null for a post scheduled over the API. */
  socialPostId: string | null;
  ledgerId: number;
  post: string;
  /** The ledger's state: claimed, unknown, posted, failed, cancelled. */
  state: string;
  publishAt: string;
  platforms: string[];
}

/** A suggestion as the renders area needs it (DESIGN §6.10): its reviewed in/out, its take, its cues. */
export interface ClipToRender {
  analysisId: string;
  n: number;
  /** The take as the recorder holds it now, else as it stood when analysed; null: analysed without one. */
  take: RecorderTake | null;
  startTime: number;
  endTime: number;
  hookQuote: string;
  /** The analysis's production (ContentProduction id). */
  contentProductionId: string;
  /** The CRM Draft Clip made from this suggestion; null: none yet. */
  draftClipId: string | null;
  /** Its cues from the in, by the caption rules, with lines of `lineChars`. */
  captions(lineChars: number): Caption[];
}

/** What the recorder's connection says of OBS's state (the rest of its /health reading is the tracker's). */
export type RecorderPeerReading = Pick<PeerHealth, 'state' | 'checkedAt' | 'lastError' | 'lastErrorAt'>;

/** The offer of the first of `areas` that gives `key`; undefined when no running area does. */
export function offerOf<K extends keyof AreaOffers>(
  areas: readonly AreaModule[],
  key: K,
): AreaOffers[K] | undefined {
  for (const area of areas) {
    const offer = area.offers?.[key];
    if (offer) return offer;
  }
  return undefined;
}

// ---- Routes: areas hand http/ their handlers, keyed by the contracts in shared/api.

type Parsed<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : undefined;

/** Who is calling, for public routes that answer more to a caller with the key (GET /health). */
export type Caller = 'anonymous' | 'key' | 'wrong-key';

export interface RouteInput<C extends RouteContract> {
  params: Parsed<C['params']>;
  query: Parsed<C['query']>;
  body: Parsed<C['body']>;
  caller: Caller;
  /**
   * When the request's first byte arrived (epoch ms; to within a quarter second, never later):
   * a sender's timeout runs from then, its headers and body included (the webhook budget).
   */
  receivedAt: number;
  /** The body's bytes as received (webhooks keep them for the delivery log). */
  rawBody: Buffer | undefined;
  /** Which EspoCRM webhook signed the request, or "bridge-key"; null when not a webhook. */
  signedBy: string | null;
  /** Aborted when the client goes away before its answer is sent: work done only for it can stop. */
  signal: AbortSignal;
}

/** A handler may answer with a status other than 200 (e.g. 202) by returning `reply(...)`. */
export interface Reply<T> {
  readonly status: number;
  readonly body: T;
  readonly headers?: Record<string, string>;
}
export const reply = <T>(status: number, body: T, headers?: Record<string, string>): Reply<T> => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});

/** How http/ sends a FileReply: its media type, the name it is saved under, its cache rule. */
export interface FileReplyOptions {
  /** The media type; text is sent as `<type>; charset=utf-8`. */
  type: string;
  /** The name a browser saves it under (Content-Disposition: attachment); none: shown inline. */
  downloadName?: string;
  /** Cache-Control; `no-store` when not said. */
  cache?: string;
  headers?: Record<string, string>;
}

/**
 * A file to save or play instead of JSON: text (sent as UTF-8), bytes, or a file on disk. http/
 * answers a byte range of it (206, 416 past its end; `Accept-Ranges: bytes`) and HEAD.
 */
export class FileReply {
  constructor(
    readonly body: string | Buffer | { path: string },
    readonly options: FileReplyOptions,
  ) {}
}
export const textReply = (text: string, options: FileReplyOptions) => new FileReply(text, options);
export const fileReply = (body: Buffer | { path: string }, options: FileReplyOptions) =>
  new FileReply(body, options);

type Output<C extends RouteContract> = z.input<C['response']>;
type Answer<C extends RouteContract> = Output<C> | Reply<Output<C>> | FileReply;
export type RouteHandler<C extends RouteContract> = (input: RouteInput<C>) => Promise<Answer<C>> | Answer<C>;

/** Mounts a contract behind the guard its `auth` names: auth runs before any parsing. */
export type Mount = <C extends RouteContract>(contract: C, handler: NoInfer<RouteHandler<C>>) => void;

// ---- Webhook items: the webhooks area verifies, logs and queues; the owning area acts.

export interface WebhookItemContext {
  event: WebhookEvent;
  deliveryId: number;
  attempt: number;
  /** Aborted when the bridge shuts down: the job will run again at the next start. */
  signal: AbortSignal;
}

/**
 * Does what one CRM item asks for. Returns the outcome stored for redeliveries. Throw a
 * retryable error (network, 5xx) to have the queue try again later; throw PermanentJobError,
 * or return `{success:false, error}` after recording the failure on the record, when retrying
 * cannot help.
 */
export type WebhookItemHandler = (item: WebhookItem, context: WebhookItemContext) => Promise<ItemOutcome>;

/** What brought the bridge to a record: its webhooks, or catch-up (a too-late post's reason names it). */
export type RecordTrigger = 'webhook' | 'catch-up';

/** A record's one job (issue #36.2): its kind and the payload that names the record. */
export interface RecordJob {
  kind: string;
  payload(id: string, trigger: RecordTrigger): unknown;
}

/**
 * An event whose items are hints for one job per record, "bring <record> in line" (SocialPost):
 * each item enqueues or joins that job in the record's lane (one that comes while it runs makes it
 * run once more) and is answered with the outcome of the first run that started after it came.
 */
export interface RecordJobHandler {
  recordJob: RecordJob;
  /**
   * The outcome of an item that needs no run at all, decided at intake from the item and the
   * area's own records (a new SocialPost that is not Scheduled and that the ledger never saw);
   * undefined otherwise. Asked only while nothing runs or waits in the record's lane. It is given
   * the item as the CRM sent it (datetimes not converted).
   */
  decideAtIntake?: (item: WebhookItem) => ItemOutcome | undefined;
  /** The item's answer from its run's outcome (e.g. a stale item is said to be one). */
  answerFor?: (item: WebhookItem, outcome: ItemOutcome) => ItemOutcome;
}

export function isRecordJobHandler(
  handler: WebhookItemHandler | RecordJobHandler,
): handler is RecordJobHandler {
  return typeof handler !== 'function';
}

// ---- CRM catch-up: the webhooks area lists what changed; the owning area acts on each record.

/** A record the bridge tracks (a scheduled post, a queued publish): what still happens if it is kept. */
export interface TrackedRecord {
  id: string;
  /** For the mass-disappearance alarm: "post 'Episode 12 promo' goes out on microblog at 2026-12-01 09:00 UTC". */
  stillHappens: string;
}

/**
 * One entity's handling in catch-up. Every call runs in the record's lane (`crmRecordLane`), so
 * a webhook, a retried webhook and catch-up meeting on one record take turns, and each reads
 * the record and the area's ledger before acting: the second to come finds nothing to do.
 */
export interface CatchUpHandler {
  /**
   * state: the record's state is compared with the area's ledger (SocialPost, PlatformPublish);
   * transition: its stage with the last known one (guests, content), so an unknown record is
   * left to its webhooks while EspoCRM may still deliver them, then becomes a baseline.
   */
  drive: 'state' | 'transition';
  /** transition-driven: whether the bridge has a last known stage for the record. */
  knows?(id: string): boolean;
  /**
   * Brings the area in line with the record as it is now (read again from the CRM), as a
   * `catchup.record` job: `handle`, or the record's own job when the area has one (`recordJob`).
   */
  handle?(id: string, context: { signal: AbortSignal }): Promise<ItemOutcome>;
  recordJob?: RecordJob;
  /** The records whose disappearance would make the bridge act (cancel), checked for 404s. */
  tracked?(): TrackedRecord[];
  /** A tracked record the CRM no longer has (404, the CRM identity confirmed); with `recordJob`, its job reads the 404. */
  vanished?(id: string, context: { signal: AbortSignal }): Promise<ItemOutcome>;
}
