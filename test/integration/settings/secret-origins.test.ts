import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import {
  startElsewhere,
  startSecretPeers,
  type Elsewhere,
  type SecretPeers,
} from '../../support/secret-peers.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/**
 * A stored peer secret belongs to the origin it was saved for (issue #35.3): Settings refuses to
 * move a peer elsewhere unless the same save sets its secret again (and clears nothing); a secret
 * from the environment is bound to the address in force at start; an earlier release's secrets are
 * bound at first load to the address beside them; and when the environment points a peer away, the
 * bridge runs on without sending the secret, the peer saying "refused key: key saved for <origin>".
 */

let sandbox: SecretPeers;
/** A host the keys must never reach: it records every request it gets, and answers 200 `{}`. */
let elsewhere: Elsewhere;
beforeAll(async () => {
  [sandbox, elsewhere] = await Promise.all([
    startSecretPeers({ automationChecksHeader: false }),
    startElsewhere(),
  ]);
});
afterAll(async () => {
  await Promise.all([sandbox?.stop(), elsewhere?.stop()]);
});

const dirs: TempDir[] = [];
const bridges: TestBridge[] = [];
afterEach(async () => {
  for (const bridge of bridges.splice(0)) await bridge.stop();
  for (const dir of dirs.splice(0)) dir.remove();
  elsewhere.requests.splice(0);
});

function dataDir(): string {
  const dir = tempDir('secret-origins');
  dirs.push(dir);
  return dir.path;
}

/** A bridge on `dir` with these env values; info-level log in the data dir's log file. */
async function bridgeOn(dir: string, env: Record<string, string> = {}, areas?: ['settings']) {
  const bridge = await startTestBridge(env, { dataDir: dir, logLevel: 'info', ...(areas ? { areas } : {}) });
  bridges.push(bridge);
  return bridge;
}

const configFile = (dir: string): string => readFileSync(path.join(dir, 'config.json'), 'utf8');
const originOf = (url: string): string => new URL(url).origin;

async function saveAllPeers(dir: string): Promise<void> {
  const settings = await bridgeOn(dir, {}, ['settings']);
  const saved = await settings.call('PUT', '/api/settings', { body: { values: sandbox.env() } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await settings.stop();
  bridges.splice(bridges.indexOf(settings), 1);
}

describe('Settings: a URL moved to another origin needs its secret in the same save', () => {
  it('refuses (400 naming the secret) for each peer, and the config file is left as it was', async () => {
    const dir = dataDir();
    await saveAllPeers(dir);
    const bridge = await bridgeOn(dir, {}, ['settings']);
    const before = configFile(dir);
    const moves = [
      { urlKey: 'CRM_URL', from: sandbox.crm.url, to: elsewhere.url, secretKey: 'CRM_API_KEY' },
      {
        urlKey: 'POSTSVC_URL',
        from: sandbox.postsvc.url,
        to: `${elsewhere.url}/postsvc`,
        secretKey: 'POSTSVC_API_KEY',
      },
      {
        urlKey: 'GATEWAY_URL',
        from: sandbox.gateway.url,
        to: `${elsewhere.url}/gateway`,
        secretKey: 'GATEWAY_API_KEY',
      },
      {
        urlKey: 'AUTOMATION_URL',
        from: sandbox.automation.url,
        to: `${elsewhere.url}/n8n`,
        secretKey: 'AUTOMATION_AUTH_HEADER',
      },
      {
        urlKey: 'RECORDER_OBS_URL',
        from: sandbox.obs.url,
        to: sandbox.otherObs.url,
        secretKey: 'RECORDER_OBS_PASSWORD',
      },
    ];
    for (const { urlKey, from, to, secretKey } of moves) {
      const refused = await bridge.call('PUT', '/api/settings', { body: { values: { [urlKey]: to } } });
      expect(refused.status, `${urlKey}: ${JSON.stringify(refused.body)}`).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(refused.body.error).toContain(`${secretKey}: saved for ${originOf(from)}`);
      expect(refused.body.details).toEqual([
        expect.objectContaining({ field: secretKey, rule: 'secret-origin' }),
      ]);
    }
    expect(configFile(dir)).toBe(before);
  });

  it('a path on the same origin is no move; with the secret set in the same save the move is written', async () => {
    const dir = dataDir();
    await saveAllPeers(dir);
    const bridge = await bridgeOn(dir, {}, ['settings']);
    const samePlace = await bridge.call('PUT', '/api/settings', {
      body: { values: { CRM_URL: `${sandbox.crm.url}/espo` } },
    });
    expect(samePlace.status, JSON.stringify(samePlace.body)).toBe(200);

    const moved = await bridge.call('PUT', '/api/settings', {
      body: { values: { CRM_URL: elsewhere.url, CRM_API_KEY: 'a-key-issued-by-the-new-crm' } },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(JSON.parse(configFile(dir))).toMatchObject({
      CRM_URL: elsewhere.url,
      CRM_API_KEY: 'a-key-issued-by-the-new-crm',
    });
  });

  it('a secret set by the environment is bound to the address in force at start: Settings cannot move its peer', async () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ CRM_URL: sandbox.crm.url }));
    const bridge = await bridgeOn(dir, { CRM_API_KEY: sandbox.crm.apiKey }, ['settings']);
    const refused = await bridge.call('PUT', '/api/settings', {
      body: { values: { CRM_URL: elsewhere.url } },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toContain(
      `CRM_API_KEY: set by the environment for ${originOf(sandbox.crm.url)}`,
    );
    expect(refused.body.details).toEqual([
      expect.objectContaining({ field: 'CRM_API_KEY', rule: 'secret-origin' }),
    ]);
    expect(JSON.parse(configFile(dir))).toEqual({ CRM_URL: sandbox.crm.url });
    const samePlace = await bridge.call('PUT', '/api/settings', {
      body: { values: { CRM_URL: `${sandbox.crm.url}/` } },
    });
    expect(samePlace.status, JSON.stringify(samePlace.body)).toBe(200);
  });
});

describe('at start, a saved secret goes only to the origin it was saved for', () => {
  it('the environment points every peer elsewhere: no secret sent, each peer says refused key, the bridge runs', async () => {
    const dir = dataDir();
    await saveAllPeers(dir);
    const bridge = await bridgeOn(dir, {
      CRM_URL: elsewhere.url,
      POSTSVC_URL: `${elsewhere.url}/postsvc`,
      GATEWAY_URL: `${elsewhere.url}/gateway`,
      AUTOMATION_URL: `${elsewhere.url}/n8n`,
      RECORDER_OBS_URL: sandbox.otherObs.url,
    });

    // A call that needs the CRM: answered, naming why nothing was sent.
    const guests = await bridge.call('GET', '/api/guests');
    expect(guests.status).toBe(500);
    expect(guests.body.peer).toMatchObject({ name: 'crm', cause: 'refused-key' });
    expect(guests.body.error).toContain(`refused key: key saved for ${originOf(sandbox.crm.url)}`);

    const health = (await bridge.call('GET', '/health')).body;
    expect(health.status).toBe('degraded');
    for (const [peer, url] of [
      ['crm', sandbox.crm.url],
      ['postsvc', sandbox.postsvc.url],
      ['gateway', sandbox.gateway.url],
      ['automation', sandbox.automation.url],
    ] as const) {
      expect(health.peers[peer], peer).toMatchObject({
        configured: true,
        refusedKeyFor: originOf(url),
        lastError: `refused key: key saved for ${originOf(url)}`,
      });
      expect(health.reasons).toContain(`${peer}: refused key: key saved for ${originOf(url)}`);
    }
    const recorder = (await bridge.call('GET', '/api/recorder/status')).body;
    expect(recorder.connection).toMatchObject({
      connected: false,
      lastError: `refused key: key saved for ${originOf(sandbox.obs.url)}`,
    });
    expect(sandbox.otherObs.clients()).toBe(0);
    expect(sandbox.secretsIn(elsewhere)).toEqual([]);

    // Settings says so beside the key, and how to send a key there.
    const settings = (await bridge.call('GET', '/api/settings')).body.settings as {
      key: string;
      note: string;
    }[];
    expect(settings.find((entry) => entry.key === 'CRM_API_KEY')?.note).toBe(
      `Not sent: saved for ${originOf(sandbox.crm.url)}, and CRM_URL points to ${originOf(elsewhere.url)}. Set it again to send a key there.`,
    );
  });

  it('a config.json of an earlier release: its secrets are bound at first load to the URL beside them, said once in the log', async () => {
    const dir = dataDir();
    writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({
        CRM_URL: sandbox.crm.url,
        CRM_API_KEY: sandbox.crm.apiKey,
        GATEWAY_URL: sandbox.gateway.url,
        GATEWAY_API_KEY: sandbox.gateway.apiKey,
      }),
    );
    const pointedAway = await bridgeOn(dir, { CRM_URL: elsewhere.url });
    expect(JSON.parse(configFile(dir)).secretOrigins).toEqual({
      CRM_API_KEY: originOf(sandbox.crm.url),
      GATEWAY_API_KEY: originOf(sandbox.gateway.url),
    });
    const guests = await pointedAway.call('GET', '/api/guests');
    expect(guests.body.peer).toMatchObject({ name: 'crm', cause: 'refused-key' });
    expect(sandbox.secretsIn(elsewhere)).toEqual([]);
    await pointedAway.stop();
    bridges.splice(bridges.indexOf(pointedAway), 1);

    // Back at the address it was saved for, the key works; the binding is said once, at the first load.
    const home = await bridgeOn(dir);
    expect((await home.call('GET', '/api/guests')).status).toBe(200);
    const log = readFileSync(path.join(dir, 'logs', 'bridge.log'), 'utf8');
    const bindingLines = log.split('\n').filter((line) => line.includes('earlier release'));
    expect(bindingLines).toHaveLength(1);
    expect(bindingLines[0]).toContain(`CRM_API_KEY for ${originOf(sandbox.crm.url)}`);
    expect(bindingLines[0]).toContain(`GATEWAY_API_KEY for ${originOf(sandbox.gateway.url)}`);
    expect(bindingLines[0]).not.toContain(sandbox.crm.apiKey);
  });

  it('sandbox mode: the simulated peers get their own keys, whatever the config file holds', async () => {
    const dir = dataDir();
    await saveAllPeers(dir);
    const bridge = await bridgeOn(dir, {
      BRIDGE_SANDBOX: '1',
      CRM_URL: elsewhere.url,
      RECORDER_OBS_URL: 'none',
    });
    expect((await bridge.call('GET', '/api/guests')).status).toBe(200);
    const health = (await bridge.call('GET', '/health')).body;
    for (const peer of ['crm', 'postsvc', 'gateway', 'automation'])
      expect(health.peers[peer], peer).toMatchObject({ refusedKeyFor: null });
    expect(existsSync(path.join(dir, 'config.json'))).toBe(true);
    expect(sandbox.secretsIn(elsewhere)).toEqual([]);
  });
});

describe('health without a refusal', () => {
  it('a peer at the address its key was saved for: refusedKeyFor null, reachable', async () => {
    const dir = dataDir();
    await saveAllPeers(dir);
    const bridge = await bridgeOn(dir);
    const crmHealth = await eventually(async () => {
      const peers = (await bridge.call('GET', '/health')).body.peers;
      return peers.crm.reachable === true ? peers.crm : null;
    });
    expect(crmHealth).toMatchObject({ refusedKeyFor: null, lastError: null });
  });
});
