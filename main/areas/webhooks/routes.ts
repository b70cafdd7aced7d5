import { hash } from 'node:crypto';
import { testWebhook, webhookContracts } from '../../../shared/api/webhooks.js';
import { reply, type Mount } from '../area.js';
import type { WebhookIntake } from './intake.js';
import { mayHoldSecret, redactPayload } from './redact.js';

export function webhookRoutes(mount: Mount, intake: WebhookIntake): void {
  const meta = (input: { rawBody: Buffer | undefined; body: unknown; signedBy: string | null }) => {
    const raw = input.rawBody?.toString('utf8') ?? JSON.stringify(input.body);
    const secretsPossible = mayHoldSecret(raw);
    return {
      rawPayload: secretsPossible ? redactPayload(raw) : raw,
      // Of the bytes as received: a replay of them is stored once (DESIGN §7).
      payloadHash: hash('sha256', input.rawBody ?? raw, 'hex'),
      signedBy: input.signedBy,
      secretsPossible,
    };
  };
  for (const { event, contract } of webhookContracts) {
    mount(contract, async (input) => {
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
}
