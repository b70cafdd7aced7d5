import { hash } from 'node:crypto';
import type { Logger } from 'pino';
import {
  clearWebhookBinding,
  listWebhookBindings,
  testWebhook,
  webhookContracts,
  type WebhookEvent,
} from '../../../shared/api/webhooks.js';
import { AppError } from '../../kernel/app-error.js';
import type { Clock } from '../../kernel/clock.js';
import type { WebhookBindings } from './bindings.js';
import { reply, type Mount } from '../area.js';
import type { WebhookIntake } from './intake.js';
import { mayHoldSecret, redactPayload } from './redact.js';

export interface BindingDeps {
  bindings: WebhookBindings;
  logger: Logger;
  now: Clock;
}

export function webhookRoutes(
  mount: Mount,
  intake: WebhookIntake,
  { bindings, logger, now }: BindingDeps,
): void {
  /**
   * DESIGN §7: a signed body for another route than its webhook id's is refused (401, retried by
   * EspoCRM, so a binding cleared by mistake heals), the binding named in the log.
   */
  const checkBinding = (signedBy: string | null, event: WebhookEvent) => {
    if (signedBy === null || signedBy === 'bridge-key') return;
    const bound = bindings.bind(signedBy, event, now().toISOString());
    if (bound === event) return;
    logger.warn(
      { webhookId: signedBy, boundTo: bound, event },
      `webhook ${signedBy} is bound to /webhooks/${bound}: refused on /webhooks/${event}`,
    );
    throw AppError.unauthorized(
      `webhook ${signedBy} signs for /webhooks/${bound} only; clear its binding in Settings if the CRM webhook moved`,
    );
  };
  const meta = (input: {
    rawBody: Buffer | undefined;
    body: unknown;
    signedBy: string | null;
    receivedAt: number;
  }) => {
    const raw = input.rawBody?.toString('utf8') ?? JSON.stringify(input.body);
    const secretsPossible = mayHoldSecret(raw);
    return {
      rawPayload: secretsPossible ? redactPayload(raw) : raw,
      // Of the bytes as received: a replay of them is stored once (DESIGN §7).
      payloadHash: hash('sha256', input.rawBody ?? raw, 'hex'),
      signedBy: input.signedBy,
      secretsPossible,
      // The budget counts from the first byte: EspoCRM's 10 s began when it started sending (issue #35.4).
      receivedAt: input.receivedAt,
    };
  };
  for (const { event, contract } of webhookContracts) {
    mount(contract, async (input) => {
      checkBinding(input.signedBy, event);
      const result = await intake.receive(event, input.body, meta(input));
      // Never 410: EspoCRM deletes a webhook that answers 410 (DESIGN §5.1).
      return reply(result.status === 410 ? 500 : result.status, result.body);
    });
  }
  mount(testWebhook, async (input) => {
    const { delayMs = 0, ...echo } = input.body;
    const result = await intake.receiveTest(echo, delayMs, meta(input));
    return reply(result.status, {
      success: true as const,
      received: true,
      deliveryId: result.deliveryId,
      ...(result.queued ? { queued: true } : {}),
      echo,
    });
  });
  mount(listWebhookBindings, () => ({ success: true, data: bindings.list() }));
  mount(clearWebhookBinding, ({ params }) => {
    if (!bindings.clear(params.webhookId)) throw AppError.notFound(`webhook ${params.webhookId}: no binding`);
    logger.info({ webhookId: params.webhookId }, 'webhook binding cleared by the operator');
    return { success: true, webhookId: params.webhookId };
  });
}
