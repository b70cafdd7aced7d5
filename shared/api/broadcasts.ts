import { z } from 'zod';
import { SPACE } from '../portable-pattern.js';
import { defineContract, idString, isoDateTime, NOT_BLANK } from './contract.js';

/**
 * Live broadcasts (spec §4.3), forwarded to the publishing gateway (DESIGN §5.3), plus the
 * dashboard's list of StreamhostBroadcast records.
 */

/** Each flag defaults to true on its own: `{dvr:false}` keeps isPublic and chatEnabled on. */
export const broadcastSettings = z
  .object({
    isPublic: z.boolean().default(true),
    chatEnabled: z.boolean().default(true),
    dvr: z.boolean().default(true),
  })
  .prefault({});
export type BroadcastSettings = z.output<typeof broadcastSettings>;

export const streamSource = z.object({
  type: z.string().max(32).trim().min(1, 'must not be empty').meta(NOT_BLANK),
  // Any URL passes here: the gateway judges the scheme and answers RTMP_INVALID (400), the
  // spec's code for it. /openapi.json states the rule the gateway applies.
  url: z.url({ error: 'must be a URL such as rtmp://host/app' }).meta({
    pattern: String.raw`^rtmps?://[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z][A-Za-z0-9-]*)*(?::[0-9]{1,4})?(?:/[^${SPACE}]*)?$`,
    description: 'an rtmp:// or rtmps:// URL (otherwise 400 RTMP_INVALID)',
  }),
  /** The stream key: a secret, masked (`••••1234`) in everything the bridge records or returns. */
  key: z.string().min(1, 'must not be empty').max(512).optional(),
});
export type StreamSource = z.output<typeof streamSource>;

export const createBroadcastBody = z.object({
  name: z.string().max(200).trim().min(1, 'is required').meta(NOT_BLANK),
  description: z.string().max(5000).optional(),
  /** Between 2000-01-01 and 5 years after now: checked by the service with the bridge's clock (shared/time-bounds.ts, 400 INVALID_DATE). */
  scheduledAt: isoDateTime,
  channelId: idString.optional(),
  streamSource: streamSource.optional(),
  settings: broadcastSettings,
  /** Started from a production's page: its StreamhostBroadcast record belongs to that ContentProduction. */
  contentProductionId: idString.optional(),
});
export type CreateBroadcastInput = z.input<typeof createBroadcastBody>;

export const createBroadcast = defineContract({
  method: 'post',
  path: '/streamhost/create-broadcast',
  tag: 'broadcasts',
  summary:
    'Create a live broadcast at the host through the gateway and its StreamhostBroadcast record in the CRM. A scheduledAt before 2000-01-01 or more than 5 years ahead is 400 INVALID_DATE. Gateway codes pass through: CHANNEL_NOT_FOUND 404, RTMP_INVALID 400, CONFLICT 409, AUTH_EXPIRED and STREAMHOST_ERROR 500.',
  auth: 'key',
  body: createBroadcastBody,
  response: z.object({
    success: z.literal(true),
    broadcastId: z.string(),
    embedUrl: z.string(),
    dashboardUrl: z.string(),
    /** The StreamhostBroadcast record; null when the CRM could not be written (retried in the background). */
    recordId: z.string().nullable(),
    warnings: z.array(z.string()).optional(),
  }),
});

export const deleteBroadcast = defineContract({
  method: 'post',
  path: '/streamhost/delete-broadcast',
  tag: 'broadcasts',
  summary: 'Delete a broadcast at the host (by its host id) and remove its StreamhostBroadcast record.',
  auth: 'key',
  body: z.object({ broadcastId: idString }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const endBroadcast = defineContract({
  method: 'post',
  path: '/streamhost/end-broadcast',
  tag: 'broadcasts',
  summary:
    'End a live broadcast through the gateway (DESIGN §5.3): it becomes complete at the host and stays listed; its StreamhostBroadcast records follow. Never deletes. An unknown broadcast is 404 NOT_FOUND; a gateway that cannot end broadcasts is 501 END_NOT_SUPPORTED; one that is not live is 409 CONFLICT.',
  auth: 'key',
  body: z.object({ broadcastId: idString }),
  response: z.object({
    success: z.literal(true),
    broadcastId: z.string(),
    status: z.string(),
    message: z.string(),
  }),
});

export const syncResult = z.object({
  /** Records examined (every StreamhostBroadcast with a streamhostId). */
  synced: z.number().int(),
  /** Records whose status or viewerCount changed. */
  updated: z.number().int(),
  /** Records that could not be read from the host or written to the CRM. */
  errors: z.number().int(),
});
export type SyncResult = z.infer<typeof syncResult>;

export const syncBroadcasts = defineContract({
  method: 'post',
  path: '/streamhost/sync',
  tag: 'broadcasts',
  summary:
    'Read every StreamhostBroadcast with a streamhostId from the host and overwrite status and viewerCount where they differ.',
  auth: 'key',
  response: syncResult.extend({ success: z.literal(true) }),
});

export const remoteBroadcast = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  viewerCount: z.number(),
  startedAt: z.string().nullable(),
  streamHealth: z.string().nullable(),
});
export type RemoteBroadcast = z.infer<typeof remoteBroadcast>;

export const broadcastStatus = defineContract({
  method: 'get',
  path: '/streamhost/status/:broadcastId',
  tag: 'broadcasts',
  summary: 'The broadcast as the host reports it now.',
  auth: 'key',
  params: z.object({ broadcastId: idString }),
  response: z.object({ success: z.literal(true), broadcast: remoteBroadcast }),
});

/** A StreamhostBroadcast record as the dashboard shows it. */
export const broadcastRecord = z.object({
  id: z.string(),
  name: z.string(),
  streamhostId: z.string().nullable(),
  status: z.string().nullable(),
  viewerCount: z.number(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  channelId: z.string().nullable(),
  embedUrl: z.string().nullable(),
  dashboardUrl: z.string().nullable(),
  contentProductionId: z.string().nullable(),
  contentProductionName: z.string().nullable(),
});
export type BroadcastRecord = z.infer<typeof broadcastRecord>;

/**
 * What the bridge saw of a broadcast while it was live (issue #41.3): the host reports neither an
 * end time nor viewers once it ends. Sampled at each sync (every 5 s while live); the average is
 * weighted by time, a sample standing for at most a minute.
 */
export const broadcastRun = z.object({
  /** The first read that found it live. */
  firstLiveAt: z.string(),
  /** The last read that found it live. */
  lastLiveAt: z.string(),
  /** The first read that found it finished (within a sync of its end when close to lastLiveAt); null: not yet. */
  endedAt: z.string().nullable(),
  peakViewers: z.number().int(),
  averageViewers: z.number().int(),
  /** Live reads the figures come from. */
  samples: z.number().int(),
});
export type BroadcastRun = z.infer<typeof broadcastRun>;

/** A record of the list: its run when the bridge saw it live (null: never, e.g. it ran before the bridge watched). */
export const listedBroadcast = broadcastRecord.extend({ run: broadcastRun.nullable() });
export type ListedBroadcast = z.infer<typeof listedBroadcast>;

export const autoSyncState = z.object({
  /** Whether the automatic sync is running (some broadcast is not complete). */
  active: z.boolean(),
  /** Seconds between reads now: 5 around and during a broadcast (DESIGN §6.9), else 30. */
  intervalS: z.number(),
  lastRun: syncResult.extend({ at: z.string(), scope: z.enum(['all', 'active']) }).nullable(),
});
export type AutoSyncState = z.infer<typeof autoSyncState>;

export const listBroadcasts = defineContract({
  method: 'get',
  path: '/api/broadcasts',
  tag: 'broadcasts',
  summary:
    'StreamhostBroadcast records from the CRM, newest scheduled first, each with what the bridge saw of it live (peak and average viewers, when it ended), and the state of the automatic sync (every 5 s from 10 min before a start until complete, else 30 s).',
  auth: 'key',
  response: z.object({ success: z.literal(true), data: z.array(listedBroadcast), autoSync: autoSyncState }),
});

/** Host statuses after which a broadcast changes no more (DESIGN §5.3). */
export const finishedBroadcastStatuses: readonly string[] = ['complete', 'revoked'];
