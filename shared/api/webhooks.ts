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

function webhookContract(event: WebhookEvent) {
  return defineContract({
    method: 'post',
    path: `/webhooks/${event}`,
    tag: 'webhooks',
    summary: `${webhookEntity[event]} ${event.split('-')[1]} (EspoCRM webhook: array of items or one object)`,
    auth: 'webhook',
    body: webhookBody,
    response: webhookResponse,
  });
}
export type WebhookContract = ReturnType<typeof webhookContract>;
export const webhookContracts: ReadonlyArray<{ event: WebhookEvent; contract: WebhookContract }> =
  webhookEvents.map((event) => ({ event, contract: webhookContract(event) }));

export const testWebhook = defineContract({
  method: 'post',
  path: '/webhooks/test',
  tag: 'webhooks',
  summary:
    'Checks the webhook path end to end: authenticates like a CRM webhook, logs the delivery, runs one queued job. `delayMs` (0-60000) makes that job slow, to see the 8 s budget and queue continuation.',
  auth: 'webhook',
  body: z.looseObject({ delayMs: z.number().int().min(0).max(60_000).optional() }),
  response: z.object({
    success: z.literal(true),
    received: z.boolean(),
    deliveryId: z.number(),
    queued: z.boolean().optional(),
    echo: z.record(z.string(), z.unknown()),
  }),
});
