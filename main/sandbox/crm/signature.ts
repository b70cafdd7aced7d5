import { createHmac } from 'node:crypto';

/**
 * EspoCRM's webhook signature (DESIGN §5.1), over the raw body bytes:
 * - current: `Signature: base64("<webhookId>:" + hex(HMAC-SHA256(body, secret)))`
 * - older servers: `X-Signature: base64("<webhookId>:" + rawHmacBytes)`
 * Exported so tests of the bridge can sign bodies the way the CRM does.
 */
export function signEspoWebhook(
  rawBody: string | Buffer,
  webhookId: string,
  secret: string,
  legacy = false,
): { header: 'Signature' | 'X-Signature'; value: string } {
  const hmac = createHmac('sha256', secret).update(rawBody);
  if (legacy) {
    const value = Buffer.concat([Buffer.from(`${webhookId}:`), hmac.digest()]).toString('base64');
    return { header: 'X-Signature', value };
  }
  return { header: 'Signature', value: Buffer.from(`${webhookId}:${hmac.digest('hex')}`).toString('base64') };
}
