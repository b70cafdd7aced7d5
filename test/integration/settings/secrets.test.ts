import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callSignedWebhook, eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Secrets in Settings (issue #12.10): a fixed mask for a list of secrets (no suffix of the last
 * one) and for short values, `••••1234` (DESIGN §3) for a long single value. In sandbox mode the
 * configured webhook secrets are honoured, and Settings says what the simulated CRM signs with.
 */

type Entry = { key: string; value: string | null; note: string | null };
const entriesOf = async (bridge: TestBridge): Promise<Record<string, Entry>> => {
  const { body } = await bridge.call('GET', '/api/settings');
  return Object.fromEntries((body.settings as Entry[]).map((entry) => [entry.key, entry]));
};

describe('secret masks in GET /api/settings', () => {
  let bridge: TestBridge;
  beforeAll(async () => {
    bridge = await startTestBridge(
      {
        CRM_WEBHOOK_SECRETS: 's1,s2',
        CRM_PASSWORD: 'hunter2',
        POSTSVC_API_KEY: 'provider-secret-9876',
        GATEWAY_API_KEY: 'gw-key-0123456789abcd',
      },
      { areas: ['settings'] },
    );
  });
  afterAll(() => bridge.close());

  it('a list of secrets: a fixed mask and how many are set, never a part of one', async () => {
    const entries = await entriesOf(bridge);
    expect(entries.CRM_WEBHOOK_SECRETS).toMatchObject({ value: '••••••••', note: '2 secrets set.' });
    const text = JSON.stringify(entries);
    expect(text).not.toContain('s1');
    expect(text).not.toContain('1,s2');
  });

  it('a single secret: ••••1234 when it has 16 characters or more, the fixed mask when shorter', async () => {
    const entries = await entriesOf(bridge);
    expect(entries.GATEWAY_API_KEY?.value).toBe('••••abcd');
    expect(entries.POSTSVC_API_KEY?.value).toBe('••••9876');
    expect(entries.CRM_PASSWORD?.value).toBe('••••••••');
    expect(JSON.stringify(entries)).not.toContain('hunter');
  });
});

describe('webhook secrets in sandbox mode', () => {
  const secrets = ['sandbox-secret-one', 'sandbox-secret-two'];
  let configured: TestBridge;
  let generated: TestBridge;
  beforeAll(async () => {
    [configured, generated] = await Promise.all([
      startTestBridge({ BRIDGE_SANDBOX: '1', CRM_WEBHOOK_SECRETS: secrets.join(',') }),
      startTestBridge({ BRIDGE_SANDBOX: '1' }, { areas: ['settings', 'webhooks'] }),
    ]);
  });
  afterAll(() => Promise.all([configured.close(), generated.close()]));

  it('honours the configured secrets: a webhook signed with any of them is accepted', async () => {
    for (const secret of secrets) {
      const rawBody = JSON.stringify({ test: true, signedWith: secret });
      const response = await callSignedWebhook(configured.url, 'test', rawBody, {
        webhookId: 'wh-settings-test',
        secret,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
  });

  it('the simulated CRM signs with the first configured secret: its deliveries are accepted', async () => {
    const guests = await configured.call('GET', '/api/guests');
    const guest = (guests.body.data as { id: string; stage: string }[]).find((g) => g.stage === 'Outreach')!;
    expect(
      (await configured.call('POST', `/api/guests/${guest.id}/stage`, { body: { stage: 'Responded' } }))
        .status,
    ).toBe(200);
    const crmUrl = (await configured.call('GET', '/health')).body.peers.crm.url as string;
    const controlKey = (await configured.call('GET', '/api/settings')).body.sandboxControlKey as string;
    const delivery = await eventually(async () => {
      const response = await fetch(`${crmUrl}/__sandbox/deliveries`, {
        headers: { 'x-sandbox-key': controlKey },
      });
      const { deliveries } = (await response.json()) as { deliveries: { event: string; status: number }[] };
      return deliveries.find((d) => d.event === 'guest-updated');
    });
    expect(delivery.status).toBe(200);
  });

  it('Settings says what the simulated CRM signs with', async () => {
    expect((await entriesOf(configured)).CRM_WEBHOOK_SECRETS).toMatchObject({
      value: '••••••••',
      note: '2 secrets set. Sandbox: the simulated CRM signs its webhooks with the first one.',
    });
    expect((await entriesOf(generated)).CRM_WEBHOOK_SECRETS).toMatchObject({
      value: null,
      note: 'Sandbox: the simulated CRM signs its webhooks with a secret generated at each start.',
    });
  });
});
