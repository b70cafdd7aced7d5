import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

let bridge: TestBridge;
beforeAll(async () => {
  bridge = await startTestBridge({ BRIDGE_SANDBOX: '1', POSTSVC_PLAN: 'premium' });
});
afterAll(() => bridge.close());

interface Delivery {
  event: string;
  status: number;
}

describe('sandbox mode (DESIGN §8)', () => {
  it('stands the four simulated peers in for the real ones, reachable, with the Sandbox flag', async () => {
    const health = await eventually(async () => {
      const { body } = await bridge.call('GET', '/health');
      const peers = Object.values(body.peers as Record<string, { reachable: boolean | null }>);
      return peers.every((p) => p.reachable === true) ? body : null;
    });
    expect(health.sandbox).toBe(true);
    for (const peer of ['crm', 'postsvc', 'gateway', 'automation']) {
      expect(health.peers[peer]).toMatchObject({
        configured: true,
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/),
      });
    }
  });

  it('follows POSTSVC_PLAN for the quota even without a real provider', async () => {
    const { body } = await bridge.call('GET', '/health');
    expect(body.quota).toMatchObject({ plan: 'premium', limit: 100 });
  });

  it('has the sandbox CRM deliver signed webhooks to the bridge, which accepts them', async () => {
    const guests = await bridge.call('GET', '/api/guests');
    const guest = (guests.body.data as { id: string; stage: string }[]).find((g) => g.stage === 'Outreach')!;
    const moved = await bridge.call('POST', `/api/guests/${guest.id}/stage`, {
      body: { stage: 'Responded' },
    });
    expect(moved.status).toBe(200);
    const crmUrl = (await bridge.call('GET', '/health')).body.peers.crm.url as string;
    const controlKey = (await bridge.call('GET', '/api/settings')).body.sandboxControlKey as string;
    // The bridge's own write is echoed back by the CRM as an update webhook, signed with the secret it set.
    const delivery = await eventually(async () => {
      const response = await fetch(`${crmUrl}/__sandbox/deliveries`, {
        headers: { 'X-Sandbox-Key': controlKey },
      });
      const { deliveries } = (await response.json()) as { deliveries: Delivery[] };
      return deliveries.find((d) => d.event === 'guest-updated');
    });
    expect(delivery.status).toBe(200);
    const activity = await bridge.call('GET', '/api/activity?type=webhook.received&limit=50');
    expect(activity.body.data.some((e: { message: string }) => e.message.startsWith('guest-updated'))).toBe(
      true,
    );
  });
});
