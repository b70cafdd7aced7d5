import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPeers, type SandboxPeers } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * The simulated peers' `/__sandbox/*` control routes inject faults and read what the peers
 * received: they need the sandbox's own key (header X-Sandbox-Key), not just a loopback
 * connection (issue #12.10). Their ordinary routes are unchanged.
 */

let peers: SandboxPeers;
beforeAll(async () => {
  peers = await startSandboxPeers();
});
afterAll(() => peers.stop());

const peerNames = ['crm', 'postsvc', 'gateway', 'automation'] as const;

describe('sandbox control routes', () => {
  it('answer 401 without the key or with a wrong one, on every peer', async () => {
    for (const name of peerNames) {
      const url = `${peers[name].url}/__sandbox/state`;
      const none = await fetch(url);
      expect(none.status, name).toBe(401);
      expect(((await none.json()) as { error: string }).error).toContain('X-Sandbox-Key');
      const wrong = await fetch(url, { headers: { 'x-sandbox-key': 'not-the-key' } });
      expect(wrong.status, name).toBe(401);
    }
  });

  it('inject no fault without the key', async () => {
    const response = await fetch(`${peers.postsvc.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 500, times: 1 }),
    });
    expect(response.status).toBe(401);
    expect(peers.postsvc.faults.activeFaults()).toEqual([]);
  });

  it('answer with the key, the same one on the four peers', async () => {
    expect(peers.controlKey.length).toBeGreaterThanOrEqual(24);
    for (const name of peerNames) {
      expect(peers[name].controlKey).toBe(peers.controlKey);
      const response = await fetch(`${peers[name].url}/__sandbox/state`, {
        headers: { 'x-sandbox-key': peers.controlKey },
      });
      expect(response.status, name).toBe(200);
    }
  });
});

describe('a bridge in sandbox mode', () => {
  let sandboxBridge: TestBridge;
  let realPeersBridge: TestBridge;
  beforeAll(async () => {
    [sandboxBridge, realPeersBridge] = await Promise.all([
      startTestBridge({ BRIDGE_SANDBOX: '1' }, { areas: ['health', 'settings'] }),
      startTestBridge({}, { areas: ['settings'] }),
    ]);
  });
  afterAll(() => Promise.all([sandboxBridge.close(), realPeersBridge.close()]));

  it('gives holders of the bridge key the control key of its simulated peers', async () => {
    const settings = await sandboxBridge.call('GET', '/api/settings');
    const controlKey = settings.body.sandboxControlKey as string;
    expect(typeof controlKey).toBe('string');
    const crmUrl = (await sandboxBridge.call('GET', '/health')).body.peers.crm.url as string;
    expect((await fetch(`${crmUrl}/__sandbox/deliveries`)).status).toBe(401);
    const withKey = await fetch(`${crmUrl}/__sandbox/deliveries`, {
      headers: { 'x-sandbox-key': controlKey },
    });
    expect(withKey.status).toBe(200);
  });

  it('has no control key with real peers', async () => {
    expect((await realPeersBridge.call('GET', '/api/settings')).body.sandboxControlKey).toBeNull();
  });
});
