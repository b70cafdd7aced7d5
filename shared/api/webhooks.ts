import { z } from 'zod';
import { defineContract, idString } from './contract.js';

/** The eleven CRM receivers of spec §4.7: `/webhooks/{entity}-{event}`. */
export const webhookEvents = [
  'guest-created',
  'guest-updated',
  'content-created',
  'content-updated',
  'platform-created',
  'platform-updated',
  'clip-created',
  'clip-updated',
  'social-created',
  'social-updated',
  'social-deleted',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/** The CRM entity behind each receiver. */
export const webhookEntity: Record<WebhookEvent, string> = {
  'guest-created': 'GuestBooking',
  'guest-updated': 'GuestBooking',
  'content-created': 'ContentProduction',
  'content-updated': 'ContentProduction',
  'platform-created': 'PlatformPublish',
  'platform-updated': 'PlatformPublish',
  'clip-created': 'Clip',
  'clip-updated': 'Clip',
  'social-created': 'SocialPost',
  'social-updated': 'SocialPost',
  'social-deleted': 'SocialPost',
};

/** One webhook item: EspoCRM sends attributes, sparse on update, only `id` on delete. */
export const webhookItem = z.looseObject({ id: idString });
export type WebhookItem = z.infer<typeof webhookItem>;

/** EspoCRM posts an array (up to 50 items); the spec's form and tests post one object. */
export const webhookBody = z.union([z.array(webhookItem).min(1).max(50), webhookItem]);

/** Outcome of one item, as stored in processed_events and answered to the sender. */
export const itemOutcome = z.looseObject({
  success: z.boolean(),
  skipped: z.boolean().optional(),
  error: z.string().optional(),
  code: z.string().optional(),
});
export type ItemOutcome = z.infer<typeof itemOutcome>;

export const webhookResponse = z.union([
  itemOutcome,
  z.object({ success: z.boolean(), queued: z.boolean().optional(), results: z.array(itemOutcome) }),
]);
export type WebhookResponse = z.infer<typeof webhookResponse>;

/** DESIGN §6.1: not finished within the 8 s budget, the rest continues in the job queue. */
const queuedResponse = z.object({
  success: z.literal(true),
  queued: z.literal(true),
  /** Per item, for an array (an item still running is `{success:true, queued:true}`). */
  results: z.array(itemOutcome).optional(),
});
/** A single item that failed: the spec's `{success:false, error}`; an array with an item that newly failed: every item's result. */
const failedResponse = z.union([
  z.object({ success: z.literal(false), error: z.string(), code: z.string().optional() }),
  z.object({ success: z.literal(false), results: z.array(itemOutcome) }),
]);

function webhookContract(event: WebhookEvent) {
  return defineContract({
    method: 'post',
    path: `/webhooks/${event}`,
    tag: 'webhooks',
    summary: `${webhookEntity[event]} ${event.split('-')[1]} (EspoCRM webhook: array of items or one object)`,
    auth: 'webhook',
    body: webhookBody,
    response: webhookResponse,
    otherResponses: {
      202: { description: 'accepted: work continues in the job queue', schema: queuedResponse },
      500: { description: 'an item failed (recorded on the CRM record)', schema: failedResponse },
    },
  });
}
export type WebhookContract = ReturnType<typeof webhookContract>;
export const webhookContracts: ReadonlyArray<{ event: WebhookEvent; contract: WebhookContract }> =
  webhookEvents.map((event) => ({ event, contract: webhookContract(event) }));

/** The longest a test webhook's job may sleep: long enough to watch it run, too short to hold a job slot for long. */
export const TEST_WEBHOOK_MAX_DELAY_MS = 2_000;

const testWebhookResponse = z.object({
  success: z.literal(true),
  received: z.boolean(),
  deliveryId: z.number(),
  queued: z.boolean().optional(),
  echo: z.record(z.string(), z.unknown()),
});

export const testWebhook = defineContract({
  method: 'post',
  path: '/webhooks/test',
  tag: 'webhooks',
  summary:
    'Checks the webhook path end to end: authenticates like a CRM webhook, logs the delivery, runs one queued job. `delayMs` (0-2000) makes that job slow; test jobs hold at most one job slot, so CRM work never waits for them.',
  auth: 'webhook',
  body: z.looseObject({
    delayMs: z
      .number()
      .int()
      .min(0)
      .max(TEST_WEBHOOK_MAX_DELAY_MS, `at most ${TEST_WEBHOOK_MAX_DELAY_MS} ms (2 s)`)
      .optional(),
  }),
  response: testWebhookResponse,
  otherResponses: {
    202: {
      description: 'the job did not finish within the 8 s budget: it continues in the queue (`queued: true`)',
      schema: testWebhookResponse,
    },
  },
});

/** A webhook id (from EspoCRM's signature) and the one route it may sign for (DESIGN §7). */
export const webhookBinding = z.object({
  webhookId: z.string(),
  event: z.enum(webhookEvents),
  boundAt: z.string(),
});
export type WebhookBinding = z.infer<typeof webhookBinding>;

export const listWebhookBindings = defineContract({
  method: 'get',
  path: '/api/webhooks/bindings',
  tag: 'webhooks',
  summary:
    'Each signing webhook id and the route it was first seen on: a body it signs for another route is refused with 401.',
  auth: 'key',
  response: z.object({ success: z.literal(true), data: z.array(webhookBinding) }),
});

export const clearWebhookBinding = defineContract({
  method: 'delete',
  path: '/api/webhooks/bindings/:webhookId',
  tag: 'webhooks',
  summary:
    'Forgets a binding (the CRM webhook moved to another event): the id binds again where it is next seen.',
  auth: 'key',
  params: z.object({ webhookId: z.string().min(1, 'must not be empty').max(200) }),
  response: z.object({ success: z.literal(true), webhookId: z.string() }),
});
