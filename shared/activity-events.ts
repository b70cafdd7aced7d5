import { z } from 'zod';
import { collectionProgress, runStatuses } from './api/analytics.js';
import { transcriptFormat } from './api/clips.js';
import { workflowStage } from './api/guests.js';
import { filenameStates } from './api/recorder.js';
import { readyStates, renderFormats, renderStates } from './api/renders.js';
import { webhookEvents } from './api/webhooks.js';

/**
 * The activity events the bridge records (`ActivityLog.record(type, level, message, data)`),
 * one `data` payload schema per event type. Stored in the activity table and streamed on
 * GET /events with the wire shape `{id, at, type, level, message, data}`.
 *
 * - `data` is what the call sites in main/ pass; a field that only some call sites pass is
 *   optional. Types recorded without data have `data: null`.
 * - Payloads parse with `z.looseObject`: a field added later (or kept in stored history)
 *   does not break parsing, it passes through untyped.
 * - The TypeScript payload type (`ActivityData<T>`) has no index signature, so a misspelt
 *   field at a call site is still a type error.
 * - No transforms or defaults here: what the bridge records is what the dashboard parses.
 *
 * Unknown types: `activityEvent` accepts only the types below. A newer bridge may record a
 * type this build does not know; `parseActivityEvent` reports it as `unknown-type` and the
 * dashboard skips it (no live row, no refresh). Stored history is read with the loose wire
 * schema (`storedActivityEvent` in shared/api/activity.ts), so old or unknown rows still list.
 */

import { activityLevel, type ActivityLevel } from './activity-level.js';

export { activityLevel, type ActivityLevel };

import { activitySubject } from './activity-subject.js';

export type { ActivitySubject } from './activity-subject.js';

const count = z.number();
const subject = activitySubject;
/** On job events: the job's subject, when its kind names one (the queue's registration says how). */
const jobSubject = activitySubject.optional();
const nullableText = z.string().nullable();
const socialEvent = z.enum(['social-created', 'social-updated', 'social-deleted']);

/** Payload fields per event type; `null`: the type is recorded without data. */
export const activityPayloads = {
  // --- bridge and job queue (main/app.ts, main/kernel/jobs) ---
  'bridge.started': null,
  'jobs.recovered': null,
  'job.done': { subject: jobSubject, jobId: count, kind: z.string() },
  /** The queue's automatic retry has `kind` and `runAt`; an operator's retry only `jobId`. */
  'job.retry': {
    subject: jobSubject,
    jobId: count,
    kind: z.string().optional(),
    runAt: z.string().optional(),
  },
  'job.failed': { subject: jobSubject, jobId: count, kind: z.string(), attempts: count },

  // --- webhooks (main/areas/webhooks/intake.ts) ---
  /** `event` is the CRM webhook (`social-created`, …) or `test`; `ids` are the delivered item ids (≤ 50). */
  'webhook.received': {
    deliveryId: count,
    event: z.enum([...webhookEvents, 'test']),
    ids: z.array(z.string()).optional(),
  },
  'webhook.failed': { deliveryId: count, event: z.enum(webhookEvents), id: z.string() },
  'webhook.test': { deliveryId: count },

  // --- CRM catch-up (main/areas/webhooks/catchup.ts, DESIGN §6.9) ---
  'catchup.finished': { runId: count, seen: count, acted: count, errors: count, queued: count },
  /** The listing failed (the CRM down): tried again after `retryInS`. */
  'catchup.failed': { runId: count, attempt: count, retryInS: count },
  /** Many tracked records vanished at once: nothing was cancelled, the operator is asked. */
  'catchup.alarm': {
    entity: z.string(),
    vanished: count,
    tracked: count,
    stillHappens: z.array(z.string()),
  },

  // --- posting (main/areas/posting) ---
  /** API posts carry `ledgerId`, SocialPost records `socialPostId` (and the draft's warnings). */
  'posting.scheduled': {
    subject: subject,
    postsvcId: nullableText,
    ledgerId: count.optional(),
    socialPostId: z.string().optional(),
    warnings: z.array(z.string()).optional(),
  },
  'posting.cancelled': {
    subject: subject,
    socialPostId: nullableText,
    postsvcId: nullableText.optional(),
    postsvcIds: z.array(z.string()).optional(),
  },
  /** Moved to a new time in place at the provider (PATCH /post, issue #36.3): the same post, no quota. */
  'posting.moved': {
    subject: subject,
    postsvcId: nullableText,
    ledgerId: count.optional(),
    socialPostId: z.string().optional(),
    from: z.string(),
    to: z.string(),
  },
  'posting.confirmed': { subject: subject, ledgerId: count, postsvcId: nullableText },
  'posting.failed': {
    subject: subject,
    ledgerId: count.optional(),
    postsvcId: nullableText.optional(),
    socialPostId: z.string().optional(),
    code: z.string().optional(),
  },
  'posting.retry': { subject: subject, socialPostId: z.string(), event: socialEvent },
  /** The provider published a post at its time; the bridge saw it (DESIGN §6.9 "Posts follow the provider"). */
  'posting.published': {
    subject: subject,
    ledgerId: count,
    postsvcId: nullableText,
    socialPostId: nullableText,
    postUrls: z.array(z.string()),
  },
  /** Still not final an hour after its time: the Posts page offers Check again. */
  'posting.unconfirmed': { subject: subject, ledgerId: count, postsvcId: nullableText },
  /** A cancel, a CRM Draft, edit or deletion met a post already live: it was kept (never deleted unasked). */
  'posting.still-live': {
    subject: subject,
    /** null: the bridge has no ledger row for the post (one it did not schedule). */
    ledgerId: count.nullable(),
    postsvcId: nullableText,
    socialPostId: nullableText,
    platforms: z.array(z.string()),
  },
  'posting.sync': {
    synced: count,
    updated: count,
    errors: count,
    failures: z.array(z.object({ socialPostId: z.string(), error: z.string() })),
  },

  // --- publishing (main/areas/publishing); `id` is the PlatformPublish record ---
  'publish.abandoned': { subject: subject, id: z.string() },
  /** A queued publish whose record CRM catch-up found deleted (404, identity checked): not published. */
  'publish.vanished': { subject: subject, id: z.string() },
  /** The operator's retry has `platform` and `from`; the job's own retry `attempt`. */
  'publish.retry': {
    subject: subject,
    id: z.string(),
    platform: nullableText.optional(),
    from: nullableText.optional(),
    attempt: count.optional(),
  },
  'publish.waiting': {
    subject: subject,
    id: z.string(),
    platform: nullableText,
    waitingOn: z.string(),
    contentProductionId: nullableText,
  },
  'publish.published': {
    subject: subject,
    id: z.string(),
    platform: nullableText,
    platformUrl: z.string(),
    platformId: z.string(),
    contentProductionId: nullableText,
  },
  'publish.dependents': {
    subject: subject,
    id: z.string(),
    dependents: z.array(z.string()),
    contentProductionId: z.string(),
  },
  'publish.duplicate': { subject: subject, id: z.string(), platformUrl: z.string() },
  'publish.failed': {
    subject: subject,
    id: z.string(),
    platform: nullableText,
    contentProductionId: nullableText,
    code: z.string().optional(),
  },

  // --- broadcasts (main/areas/broadcasts) ---
  /** `streamSource.key` is masked (`••••1234`). */
  'broadcast.created': {
    subject: subject,
    broadcastId: z.string(),
    recordId: nullableText,
    scheduledAt: z.string(),
    channelId: nullableText,
    settings: z.object({ isPublic: z.boolean(), chatEnabled: z.boolean(), dvr: z.boolean() }),
    streamSource: z.object({ type: z.string(), url: z.string(), key: z.string().optional() }).nullable(),
  },
  'broadcast.deleted': { subject: subject, broadcastId: z.string(), recordIds: z.array(z.string()) },
  /** Ended through End (DESIGN §5.3): complete at the host, kept, its records following. */
  'broadcast.ended': { subject: subject, broadcastId: z.string(), recordIds: z.array(z.string()) },
  /**
   * Linked to a production by the operator (POST /api/productions/{id}/broadcasts); `production` names
   * it, `fromContentProductionId` the production it belonged to before (null: none). Not recorded
   * when the link was already so.
   */
  'broadcast.linked': {
    subject: subject,
    broadcastRecordId: z.string(),
    contentProductionId: z.string(),
    production: subject,
    fromContentProductionId: nullableText,
  },
  /** `id` is the StreamhostBroadcast record, `from` its status before (null: it had none). */
  'broadcast.status': {
    subject: subject,
    id: z.string(),
    streamhostId: nullableText,
    from: nullableText,
    to: z.string(),
    viewerCount: count,
  },
  'broadcast.sync': {
    scope: z.enum(['all', 'active']),
    synced: count,
    updated: count,
    errors: count,
    failures: z.array(z.object({ id: z.string(), name: z.string(), error: z.string() })),
  },

  // --- analytics (main/areas/analytics) ---
  /** The sandbox's demo history seeded (main/sandbox/module.ts). */
  'analytics.demo': { socialRows: count, contentRows: count },
  'collection.progress': collectionProgress.shape,
  /** A run interrupted by a stop is reported at the next start without `phase`. */
  'collection.finished': {
    runId: count,
    status: z.enum(runStatuses),
    phase: z.literal('done').optional(),
    code: z.string().optional(),
  },

  // --- guests (main/areas/guests) ---
  /**
   * A stage transition has `from`/`to`; a guest that passed a workflow stage between two
   * observations has `passed`/`current`. `runId`/`workflow` when a workflow run is involved.
   */
  'guests.stage': {
    subject: subject,
    guestId: z.string(),
    source: z.enum(['webhook', 'dashboard', 'fetched', 'catch-up']),
    runId: count.optional(),
    workflow: z.string().optional(),
    from: nullableText.optional(),
    to: z.string().optional(),
    passed: z.string().optional(),
    current: z.string().optional(),
  },
  /** A failed run adds `message`, `hint` and `httpStatus`. */
  'guests.workflow': {
    subject: subject,
    guestId: z.string(),
    runId: count,
    workflow: z.string(),
    stage: workflowStage,
    message: z.string().optional(),
    hint: nullableText.optional(),
    httpStatus: count.nullable().optional(),
  },
  /**
   * A stage workflow held because its email would render empty variables (DESIGN §6.8), and how
   * the hold went on: `held`, `waiting` (re-checked, a different set still missing), `released`
   * (the values came; `runId` started), `sent-anyway` (the operator's choice; `runId`),
   * `superseded` (the guest moved on to another stage first: nothing sent). `reason` late: CRM
   * catch-up found the transition late (DESIGN §6.9), only the operator sends it.
   */
  'guests.hold': {
    subject: subject,
    guestId: z.string(),
    stage: workflowStage,
    workflow: z.string(),
    missing: z.array(z.string()),
    reason: z.enum(['missing-values', 'late']).optional(),
    outcome: z.enum(['held', 'waiting', 'released', 'sent-anyway', 'superseded']),
    runId: count.optional(),
  },
  /** The names of the templates and settings that were changed. */
  'guests.templates': { templates: z.array(z.string()), settings: z.array(z.string()) },
  /** The sandbox's demo stage history seeded (main/sandbox/demo-guest-history.ts). */
  'guests.demo': { guests: count, entries: count },

  // --- clips (main/areas/clips) ---
  'clips.analyzed': {
    subject: subject,
    contentProductionId: z.string(),
    /** The stored analysis (exports, review); absent on events recorded before it was kept. */
    analysisId: z.string().optional(),
    clips: count,
    words: count,
    format: transcriptFormat,
    ms: count,
  },
  'clips.draft-created': { subject: subject, clipId: z.string(), contentProductionId: z.string() },
  'clips.fit': {
    subject: subject,
    clipId: z.string(),
    contentProductionId: nullableText,
    problems: z.array(
      z.object({
        platform: nullableText,
        kind: z.enum(['duration', 'ratio', 'unknown-platform', 'unknown-ratio', 'no-duration']),
        message: z.string(),
      }),
    ),
  },

  // --- clip renders (main/areas/renders, DESIGN §6.10) ---
  /** Queued, rendering (`restarted`: again from zero after a restart), done, failed or cancelled. */
  'render.state': {
    renderId: z.string(),
    analysisId: z.string(),
    n: count,
    state: z.enum(renderStates),
    formats: z.array(z.enum(renderFormats)),
    restarted: z.boolean().optional(),
  },
  /** How far a running render is (0–100) and the seconds left, from its speed so far (null: not known yet). */
  'render.progress': { renderId: z.string(), percent: count, etaS: count.nullable() },
  /** Make ready (issue #44.1): queued, uploading (`done` of `total` files sent), ready or failed; the clip it writes. */
  'render.ready': {
    renderId: z.string(),
    clipId: z.string(),
    state: z.enum(readyStates),
    done: count.optional(),
    total: count.optional(),
  },

  // --- recorder and settings ---
  /** `state`: where the name stands with the recorder (absent in history from before the recorder). */
  'recorder.filename': { filename: z.string(), state: z.enum(filenameStates).nullable().optional() },
  'recorder.connected': { obsFilename: nullableText, state: z.enum(filenameStates).nullable() },
  'recorder.disconnected': { error: z.string() },
  /** A take started (`stopped` false) or stopped (with the file OBS wrote). */
  'recorder.take': { takeId: count, name: z.string(), filePath: nullableText, stopped: z.boolean() },
  /** A mark made, or (`change`) renamed or deleted later. */
  'recorder.mark': {
    markId: count,
    takeId: count.nullable(),
    change: z.enum(['renamed', 'deleted']).optional(),
  },
  /** The config keys written (the values may be secrets and are not recorded). */
  'settings.updated': { keys: z.array(z.string()) },
} as const satisfies Record<string, z.ZodRawShape | null>;

type Payloads = typeof activityPayloads;

/** Every activity event type, e.g. `'webhook.received'`. */
export type ActivityType = keyof Payloads;

/** All event types, in the order of `activityPayloads` (grouped by area). */
export const activityTypes = Object.keys(activityPayloads) as readonly ActivityType[];

type PayloadOf<S> = S extends z.ZodRawShape ? z.output<z.ZodObject<S>> : null;

/** The `data` payload of every event type. */
export type ActivityDataMap = { [T in ActivityType]: PayloadOf<Payloads[T]> };

/**
 * The `data` of one event type: what `record(type, level, message, data)` takes and what the
 * dashboard reads. `null` for the types recorded without data.
 */
export type ActivityData<T extends ActivityType> = ActivityDataMap[T];

/**
 * The trailing `data` argument of `record(type, level, message, ...data)` as a rest tuple:
 * required for types with a payload, optional (`null`) for those recorded without data.
 * E.g. `record<T extends ActivityType>(type: T, level, message, ...[data = null]: ActivityDataArgs<T>)`.
 */
export type ActivityDataArgs<T extends ActivityType> =
  ActivityData<T> extends null ? [data?: null] : [data: ActivityData<T>];

/**
 * One activity event, typed by its `type`: narrowing on `event.type` types `event.data`.
 * `ActivityEvent<'webhook.received'>` is one type; `ActivityEvent` the union of all.
 */
export type ActivityEvent<T extends ActivityType = ActivityType> = {
  [K in T]: {
    id: number;
    at: string;
    type: K;
    level: ActivityLevel;
    message: string;
    data: ActivityData<K>;
  };
}[T];

export function isActivityType(type: string): type is ActivityType {
  return Object.hasOwn(activityPayloads, type);
}

/** The zod schema of one type's `data`. */
export function activityDataSchema<T extends ActivityType>(type: T): z.ZodType<ActivityData<T>> {
  const shape: z.ZodRawShape | null = activityPayloads[type];
  return (shape === null ? z.null() : z.looseObject(shape)) as unknown as z.ZodType<ActivityData<T>>;
}

const eventSchemas = activityTypes.map((type) =>
  z.object({
    id: z.number(),
    at: z.string(),
    type: z.literal(type),
    level: activityLevel,
    message: z.string(),
    data: activityDataSchema(type),
  }),
);

/**
 * A known activity event, discriminated by `type` (strict per type; unknown types fail).
 * Use `parseActivityEvent` to tell an unknown type from a malformed event.
 */
export const activityEvent = z.discriminatedUnion(
  'type',
  eventSchemas as [(typeof eventSchemas)[number], ...(typeof eventSchemas)[number][]],
) as unknown as z.ZodType<ActivityEvent>;

export type ActivityParseResult =
  | { ok: true; event: ActivityEvent }
  /** A type this build does not know (e.g. from a newer bridge): skip it. */
  | { ok: false; reason: 'unknown-type'; type: string }
  /** Not an activity event, or a known type whose payload does not match its schema. */
  | { ok: false; reason: 'invalid'; error: z.ZodError };

/** Parses one event from GET /events; never throws. */
export function parseActivityEvent(value: unknown): ActivityParseResult {
  if (typeof value === 'object' && value !== null && 'type' in value) {
    const { type } = value;
    if (typeof type === 'string' && !isActivityType(type)) return { ok: false, reason: 'unknown-type', type };
  }
  const parsed = activityEvent.safeParse(value);
  return parsed.success
    ? { ok: true, event: parsed.data }
    : { ok: false, reason: 'invalid', error: parsed.error };
}
