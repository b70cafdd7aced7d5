import { z } from 'zod';
import { defineContract, idString } from './contract.js';

/**
 * Platform publishing (spec §2.5, §3.5, DESIGN §6.4) as the dashboard sees it: the
 * PlatformPublish records of each ContentProduction, with what the bridge knows about them.
 */

/**
 * draft: not asked to publish. queued: will publish on its next event. waiting: Queued, its
 * dependency has not published yet. publishing: a gateway call is in flight (or its outcome
 * is unknown). published / failed: as written back to the CRM.
 */
export const publishState = z.enum(['draft', 'queued', 'waiting', 'publishing', 'published', 'failed']);
export type PublishState = z.infer<typeof publishState>;

export const publishRecordView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  platform: z.string().nullable(),
  publishType: z.string().nullable(),
  title: z.string().nullable(),
  status: z.string().nullable(),
  state: publishState,
  /** The platform this record waits for (state waiting). */
  waitingOn: z.string().nullable(),
  /** Why it waits, or what the bridge noted last. */
  note: z.string().nullable(),
  platformUrl: z.string().nullable(),
  platformId: z.string().nullable(),
  streamUrl: z.string().nullable(),
  /** Masked `••••1234`. */
  streamKey: z.string().nullable(),
  apiResponse: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
  modifiedAt: z.string().nullable(),
});
export type PublishRecordView = z.infer<typeof publishRecordView>;

export const productionPublishing = z.object({
  contentProductionId: z.string().nullable(),
  contentProductionName: z.string().nullable(),
  records: z.array(publishRecordView),
});
export type ProductionPublishing = z.infer<typeof productionPublishing>;

export const publishRouteView = z.object({
  platform: z.string(),
  livestream: z.string(),
  upload: z.string(),
  dependsOn: z.string().nullable(),
});

export const listPublishing = defineContract({
  method: 'get',
  path: '/api/publishing',
  tag: 'publishing',
  summary:
    'PlatformPublish records grouped by ContentProduction (one production with contentProductionId), and the route table.',
  auth: 'key',
  query: z.object({ contentProductionId: idString.optional() }),
  response: z.object({
    success: z.literal(true),
    data: z.array(productionPublishing),
    routes: z.array(publishRouteView),
  }),
});

export const retryPublish = defineContract({
  method: 'post',
  path: '/api/publishing/:id/retry',
  tag: 'publishing',
  summary:
    'Set a Failed (or stuck Queued) PlatformPublish record to Queued in the CRM and publish it now. 409 when it is Published or a publish is in flight.',
  auth: 'key',
  params: z.object({ id: idString }),
  response: z.object({
    success: z.literal(true),
    id: z.string(),
    status: z.literal('Queued'),
    message: z.string(),
  }),
});
