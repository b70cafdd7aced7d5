import { z } from 'zod';
import { defineContract, idString, NOT_BLANK, queryInt } from './contract.js';
import { recorderTake } from './recorder.js';
import { renderRecord } from './renders.js';

/**
 * The production thread (issue #42, DESIGN §6.11): the CRM's ContentProduction records listed,
 * and one production with everything that belongs to it, in one answer.
 */

const text = z.string().nullable();
const filterText = (max: number) =>
  z.string().max(max, `must be at most ${max} characters`).trim().min(1, 'must not be empty').meta(NOT_BLANK);

export const productionSummary = z.object({
  id: z.string(),
  name: text,
  /** Episode, Livestream, Video, Article, Clip Package. */
  contentType: text,
  stage: text,
  showName: text,
  scheduledDate: text,
});
export type ProductionSummary = z.infer<typeof productionSummary>;

export const listProductions = defineContract({
  method: 'get',
  path: '/api/productions',
  tag: 'productions',
  summary:
    "The CRM's ContentProduction records by scheduled date (newest first), paged with limit and offset; `q` finds names containing it, `show`, `stage` and `type` filter. 503 NOT_CONFIGURED without a CRM; the CRM's failure in words when it cannot be read.",
  auth: 'key',
  query: z.object({
    q: filterText(200).optional(),
    show: filterText(200).optional(),
    stage: filterText(64).optional(),
    type: filterText(64).optional(),
    limit: queryInt(1, 200).default(50),
    offset: queryInt(0, 1_000_000).default(0),
  }),
  response: z.object({
    success: z.literal(true),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    productions: z.array(productionSummary),
  }),
});

/** Something the thread could not read, in words: the rest of the answer stands without it. */
export const missingPart = z.object({
  /** The CRM entity (ContentProduction, GuestBooking, …) or the bridge's part that is missing. */
  entity: z.string(),
  reason: z.string(),
});
export type MissingPart = z.infer<typeof missingPart>;

export const stageEntry = z.object({
  stage: z.string(),
  previousStage: text,
  enteredAt: z.string(),
  /** How the bridge learned it: created, webhook, fetched, catch-up. */
  source: z.string(),
});

export const productionGuest = z.object({
  id: z.string(),
  name: text,
  /** The guest's pipeline stage in the CRM. */
  stage: text,
  scheduledDate: text,
  /** The guest's last automation workflow run as the bridge knows it; null: none ran. */
  workflow: z
    .object({ workflow: z.string(), stage: z.string(), status: z.string(), message: text, at: z.string() })
    .nullable(),
});
export type GuestWorkflowState = z.infer<typeof productionGuest>['workflow'];
export type StageEntry = z.infer<typeof stageEntry>;

export const productionBroadcast = z.object({
  id: z.string(),
  name: z.string(),
  status: text,
  onAir: z.boolean(),
  viewerCount: z.number(),
  /** The most viewers the bridge saw while it synced the broadcast; null when it never saw it live. */
  peakViewers: z.number().nullable(),
  scheduledAt: text,
  startedAt: text,
  dashboardUrl: text,
});

export const productionTake = recorderTake;

export const productionAnalysis = z.object({
  id: z.string(),
  takeId: z.number().int().nullable(),
  takeName: text,
  createdAt: z.string(),
  expiresAt: z.string(),
  suggestions: z.number().int(),
  /** The first suggestion's hook, to tell analyses apart. */
  firstHook: text,
  /** The Draft Clips made from its suggestions (`n`: the suggestion, 1 for the first), so a clip opens its card. */
  drafts: z.array(z.object({ n: z.number().int(), clipId: z.string() })),
});
export type ProductionAnalysis = z.infer<typeof productionAnalysis>;

export const productionClip = z.object({
  id: z.string(),
  name: text,
  /** Draft, Editing, Ready, Published. */
  status: text,
  hookQuote: text,
  durationS: z.number().nullable(),
  aspectRatio: text,
  videoUrls: z.array(z.string()),
});

export const productionPost = z.object({
  /** The CRM SocialPost's id, or `api:<ledger id>` for a post scheduled from the dashboard. */
  id: z.string(),
  /** Where the post is kept: a CRM SocialPost, or the bridge's ledger (scheduled from the dashboard, issue #44.2). */
  from: z.enum(['crm', 'dashboard']),
  content: z.string(),
  platform: text,
  postType: text,
  /** Draft, Scheduled, Published, Failed. */
  status: text,
  scheduledAt: text,
  postsvcId: text,
  /** Where the published post can be seen, when the CRM or provider gave one. */
  url: text,
  error: text,
  clipId: text,
  /** The post's latest collected numbers; null before any collection. */
  numbers: z.object({ likes: z.number(), comments: z.number(), shares: z.number() }).nullable(),
});

export const productionPublish = z.object({
  id: z.string(),
  name: text,
  platform: text,
  publishType: text,
  /** Queued, Published, Failed (or Draft). */
  status: text,
  scheduledAt: text,
  platformUrl: text,
  error: text,
});

export const contentMetricPoint = z.object({
  platform: z.string(),
  views: z.number(),
  watchHours: z.number(),
  likes: z.number(),
  comments: z.number(),
  shares: z.number(),
  collectedAt: z.string(),
});
export type ContentMetricPoint = z.infer<typeof contentMetricPoint>;

export const productionThread = z.object({
  success: z.literal(true),
  /** The CRM record; only `id` is known (the rest null) when the CRM could not be read. */
  production: productionSummary.extend({
    description: text,
    platforms: z.array(z.string()),
    guestBookingId: text,
    recordingUrl: text,
  }),
  stageHistory: z.array(stageEntry),
  guests: z.array(productionGuest),
  broadcasts: z.array(productionBroadcast),
  takes: z.array(productionTake),
  analyses: z.array(productionAnalysis),
  clips: z.array(productionClip),
  /** Renders of this production's analyses, newest first (a running one with its progress). */
  renders: z.array(renderRecord),
  posts: z.array(productionPost),
  publishes: z.array(productionPublish),
  analytics: z.object({
    /** Each platform's latest collected numbers. */
    latest: z.array(contentMetricPoint),
    /** Views per day (UTC) over the last 90 days, all platforms summed, oldest first. */
    viewsByDay: z.array(z.object({ day: z.string(), views: z.number() })),
  }),
  /** What could not be read, in words (a CRM that is down: its entities). Empty when nothing is missing. */
  missing: z.array(missingPart),
});
export type ProductionThread = z.infer<typeof productionThread>;

export const getProduction = defineContract({
  method: 'get',
  path: '/api/productions/:id',
  tag: 'productions',
  summary:
    "One production's whole thread: stage history, guests, broadcasts, takes and marks, analyses, clips and renders, posts and publish records, analytics. One CRM list per entity (paged past 200); when the CRM is down the bridge's part is answered and `missing` says what is not. 404 when the CRM has no such production.",
  auth: 'key',
  params: z.object({ id: idString }),
  response: productionThread,
});

export const linkBroadcast = defineContract({
  method: 'post',
  path: '/api/productions/:id/broadcasts',
  tag: 'productions',
  summary:
    'Links an existing StreamhostBroadcast record to this production (writes its contentProductionId in the CRM). 404 when either record is not in the CRM.',
  auth: 'key',
  params: z.object({ id: idString }),
  body: z.object({ broadcastRecordId: idString }),
  response: z.object({
    success: z.literal(true),
    broadcastRecordId: z.string(),
    contentProductionId: z.string(),
  }),
});
