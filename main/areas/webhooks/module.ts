import { testWebhook, webhookContracts } from '../../../shared/api/webhooks.js';
import type { FeatureFactory } from '../../core.js';
import type { RawBodyRequest } from '../../http/guards.js';
import { reply } from '../../http/route.js';
import { redactPayload } from './redact.js';

/** The eleven CRM receivers and the test webhook; what each item does is up to the features. */
export const webhooksFeature: FeatureFactory = (core) => ({
  name: 'webhooks',
  mountRoutes(mount) {
    const meta = (req: RawBodyRequest) => ({
      rawPayload: redactPayload(req.rawBody?.toString('utf8') ?? JSON.stringify(req.body)),
      signedBy: req.signedBy ?? null,
    });
    for (const { event, contract } of webhookContracts) {
      mount(contract, async ({ body, req }) => {
        const result = await core.webhooks.receive(event, body, meta(req));
        // Never 410: EspoCRM deletes a webhook that answers 410 (DESIGN §5.1).
        return reply(result.status === 410 ? 500 : result.status, result.body);
      });
    }
    mount(testWebhook, async ({ body, req }) => {
      const { delayMs = 0, ...echo } = body;
      const result = await core.webhooks.receiveTest(echo, delayMs, meta(req));
      return reply(result.status, {
        success: true as const,
        received: true,
        deliveryId: result.deliveryId,
        ...(result.queued ? { queued: true } : {}),
        echo,
      });
    });
  },
});
