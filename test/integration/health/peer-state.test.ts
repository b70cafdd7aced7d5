import { afterAll, afterEach, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxObs,
  startSandboxPostsvc,
  type SandboxCrm,
  type SandboxObs,
  type SandboxPostsvc,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * One word for a peer's state (issue #38.3): GET /health gives each configured peer, the recorder's
 * OBS included, `state` (reachable, throttled until…, failing, unreachable, refused-key) beside
 * its latency and last error, from the bridge's own calls to the sandbox peers made to fail. A
 * reading older than the state is kept as past (its time beside it), never as the state.
 */
const OBS_PASSWORD = 'obs-password-peer-state';
const crm: SandboxCrm = await startSandboxCrm({ warn: () => undefined });
const postsvc: SandboxPostsvc = await startSandboxPostsvc({ plan: 'business' });
const obs: SandboxObs = await startSandboxObs({ password: OBS_PASSWORD });
const bridges: TestBridge[] = [];

afterEach(async () => {
  crm.faults.clearFaults();
  postsvc.faults.clearFaults();
  await crm.faults.refuseConnections(false);
  await postsvc.faults.refuseConnections(false);
  await obs.refuseConnections(false);
  while (bridges.length > 0) await bridges.pop()!.close();
});
afterAll(async () => {
  await crm.stop();
  await postsvc.stop();
  await obs.stop();
});

async function bridgeOnPeers(env: Record<string, string> = {}): Promise<TestBridge> {
  const bridge = await startTestBridge(
    {
      CRM_URL: crm.url,
      CRM_API_KEY: crm.apiKey,
      POSTSVC_URL: postsvc.url,
      POSTSVC_API_KEY: postsvc.apiKey,
      POSTSVC_PLAN: 'business',
      RECORDER_OBS_URL: obs.url,
      RECORDER_OBS_PASSWORD: OBS_PASSWORD,
      ...env,
    },
    {
      areas: ['health', 'recorder'],
      // Probes every 100 ms instead of 30 s, and OBS tried again at once: the states change while the test waits.
      tuning: { peers: { probeEveryMs: 100, obs: { reconnectFirstMs: 50, reconnectMaxMs: 100 } } },
    },
  );
  bridges.push(bridge);
  return bridge;
}

const health = async (bridge: TestBridge) => (await bridge.call('GET', '/health')).body;
const peerIn = (bridge: TestBridge, peer: string, state: string) =>
  eventually(async () => {
    const body = await health(bridge);
    return body.peers[peer].state === state ? body : null;
  });

it('says reachable for every peer that answers, the recorder included, and nothing for those not configured', async () => {
  const bridge = await bridgeOnPeers();
  const body = await eventually(async () => {
    const answer = await health(bridge);
    return ['crm', 'postsvc', 'obs'].every((peer) => answer.peers[peer].state === 'reachable')
      ? answer
      : null;
  });
  expect(body.status).toBe('ok');
  expect(body.reasons).toEqual([]);
  expect(body.peers.crm).toMatchObject({
    configured: true,
    state: 'reachable',
    until: null,
    latencyMs: expect.any(Number),
    lastError: null,
    lastErrorAt: null,
  });
  expect(body.peers.obs).toMatchObject({
    configured: true,
    state: 'reachable',
    url: obs.url,
    lastError: null,
  });
  expect(body.peers.gateway).toMatchObject({ configured: false, state: null });
  expect(body.peers.automation).toMatchObject({ configured: false, state: null });
});

it('says throttled until when the provider answers 429, degraded, and the reason names the time', async () => {
  const bridge = await bridgeOnPeers();
  await peerIn(bridge, 'postsvc', 'reachable');
  const asked = Date.now();
  postsvc.faults.injectFault({
    status: 429,
    headers: { 'retry-after': '120' },
    body: { status: 'error', message: 'Too many requests' },
    times: 1_000,
  });
  const body = await peerIn(bridge, 'postsvc', 'throttled');
  expect(body.status).toBe('degraded');
  const until = Date.parse(body.peers.postsvc.until);
  expect(until).toBeGreaterThanOrEqual(asked + 119_000);
  expect(until).toBeLessThanOrEqual(Date.now() + 121_000);
  expect(body.peers.postsvc.lastError).toMatch(/HTTP 429/);
  expect(body.reasons).toEqual([`postsvc throttled until ${body.peers.postsvc.until}`]);
});

it('says failing while the CRM answers 500, then reachable once it is back, its old error kept as past', async () => {
  const bridge = await bridgeOnPeers();
  await peerIn(bridge, 'crm', 'reachable');
  crm.faults.injectFault({ status: 500, body: { error: 'boom' }, times: 1_000 });
  const failing = await peerIn(bridge, 'crm', 'failing');
  expect(failing.status).toBe('degraded');
  // The CRM answered (with a 500): how fast it did is a real figure.
  expect(failing.peers.crm.latencyMs).toEqual(expect.any(Number));
  expect(failing.peers.crm.lastError).toMatch(/^crm GET \/App\/user: HTTP 500/);
  expect(Date.parse(failing.peers.crm.lastErrorAt)).not.toBeNaN();
  expect(failing.reasons).toEqual([`crm failing: ${failing.peers.crm.lastError}`]);

  crm.faults.clearFaults();
  const back = await peerIn(bridge, 'crm', 'reachable');
  expect(back.status).toBe('ok');
  expect(back.reasons).toEqual([]);
  expect(back.peers.crm.lastError).toMatch(/HTTP 500/);
  expect(Date.parse(back.peers.crm.checkedAt)).toBeGreaterThan(Date.parse(back.peers.crm.lastErrorAt));
});

it('says failing when the CRM answers garbage', async () => {
  const bridge = await bridgeOnPeers();
  await peerIn(bridge, 'crm', 'reachable');
  crm.faults.injectFault({ status: 200, body: '<html>not the CRM</html>', times: 1_000 });
  const body = await peerIn(bridge, 'crm', 'failing');
  expect(body.peers.crm.lastError).toMatch(/not JSON/);
});

it('says refused-key when the CRM answers 401', async () => {
  const bridge = await bridgeOnPeers();
  await peerIn(bridge, 'crm', 'reachable');
  crm.faults.injectFault({ status: 401, times: 1_000 });
  const body = await peerIn(bridge, 'crm', 'refused-key');
  expect(body.status).toBe('degraded');
  expect(body.peers.crm.lastError).toMatch(/HTTP 401/);
  expect(body.reasons).toEqual([`crm refused-key: ${body.peers.crm.lastError}`]);
});

it('says unreachable, with no latency, while the CRM is down', async () => {
  const bridge = await bridgeOnPeers();
  await peerIn(bridge, 'crm', 'reachable');
  await crm.faults.refuseConnections(true);
  const body = await peerIn(bridge, 'crm', 'unreachable');
  expect(body.status).toBe('degraded');
  expect(body.peers.crm.latencyMs).toBeNull();
  expect(body.peers.crm.lastError).toMatch(/connection refused/);
});

it("says refused-key with OBS's own words when OBS refuses the password, and unreachable while it is down", async () => {
  const refused = await bridgeOnPeers({ RECORDER_OBS_PASSWORD: 'not-the-password' });
  const body = await peerIn(refused, 'obs', 'refused-key');
  expect(body.status).toBe('degraded');
  expect(body.peers.obs.lastError).toBe('Authentication failed. (code 4009)');
  expect(body.reasons).toContain('obs refused-key: Authentication failed. (code 4009)');

  const bridge = await bridgeOnPeers();
  await peerIn(bridge, 'obs', 'reachable');
  await obs.refuseConnections(true);
  const down = await peerIn(bridge, 'obs', 'unreachable');
  expect(down.peers.obs.latencyMs).toBeNull();
  expect(down.status).toBe('degraded');
});

it('tells a caller without the key only that the bridge is degraded', async () => {
  const bridge = await bridgeOnPeers();
  await peerIn(bridge, 'crm', 'reachable');
  await crm.faults.refuseConnections(true);
  await peerIn(bridge, 'crm', 'unreachable');
  const anonymous = await bridge.call('GET', '/health', { key: null });
  expect(Object.keys(anonymous.body).sort()).toEqual(['status', 'success', 'uptimeS', 'version']);
  expect(anonymous.body.status).toBe('degraded');
});
