import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/ports.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import {
  OBS_PASSWORD,
  startElsewhere,
  startSecretPeers,
  type Elsewhere,
  type SecretPeers,
} from '../../support/secret-peers.js';

/**
 * Settings' Test connection (issue #41.1): POST /api/settings/test-connection tries a peer at its
 * address in force or at one given, and says what it answered — reachable with its latency, refused
 * the key, not found, no answer, not that peer — as a 200, never a 500. The safety rule of issue
 * #35.3 holds: a saved secret is sent only to the origin it was saved for; an address elsewhere is
 * tested with the secrets given in the same request, or with none.
 */

let sandbox: SecretPeers;
/** Answers 200 `{}` to everything: a server, but no peer. */
let elsewhere: Elsewhere;
/** Answers 404 with a web page to everything. */
let nothingHere: Elsewhere;
/** Never answers. */
let silent: Elsewhere;
/** Sends every request to `elsewhere`. */
let redirector: Elsewhere;
let bridge: TestBridge;

beforeAll(async () => {
  [sandbox, elsewhere, nothingHere, silent] = await Promise.all([
    startSecretPeers({ automationChecksHeader: true }),
    startElsewhere(),
    startElsewhere(() => ({
      status: 404,
      body: '<html>Not Found</html>',
      headers: { 'content-type': 'text/html' },
    })),
    startElsewhere(() => null),
  ]);
  redirector = await startElsewhere((url) => ({
    status: 302,
    headers: { location: `${elsewhere.url}${url}` },
  }));
  bridge = await startTestBridge(sandbox.env(), { areas: ['settings'] });
});

afterAll(async () => {
  await bridge?.close();
  await Promise.all([sandbox, elsewhere, nothingHere, silent, redirector].map((peer) => peer?.stop()));
});

afterEach(() => {
  for (const host of [elsewhere, nothingHere, silent, redirector]) host.requests.splice(0);
});

const test = (body: Record<string, unknown>) =>
  bridge.call('POST', '/api/settings/test-connection', { body });
const originOf = (url: string): string => new URL(url).origin;

describe('Test connection: what each peer answered, in force', () => {
  it('every peer at its address in force, with its saved key: reachable, with the latency', async () => {
    for (const peer of ['crm', 'postsvc', 'gateway', 'automation', 'obs'] as const) {
      const answer = await test({ peer });
      expect(answer.status, `${peer}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body, peer).toMatchObject({
        success: true,
        peer,
        outcome: 'reachable',
        credentials: 'saved',
        savedKeyFor: null,
      });
      expect(answer.body.latencyMs, peer).toEqual(expect.any(Number));
    }
    expect((await test({ peer: 'crm' })).body.detail).toBe('API user studio-bridge');
  });

  it('a wrong key given in the request: the peer refused the key (CRM, provider, gateway, OBS)', async () => {
    for (const body of [
      { peer: 'crm', apiKey: 'not-the-crm-key' },
      { peer: 'postsvc', apiKey: 'not-the-provider-key' },
      { peer: 'gateway', apiKey: 'not-the-gateway-key' },
      { peer: 'obs', password: 'not-the-obs-password' },
    ]) {
      const answer = await test(body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body, body.peer).toMatchObject({ outcome: 'refused-key', credentials: 'given' });
    }
  });

  it('an address where nothing of the peer is: not found; one that answers as no peer does: not that peer', async () => {
    const missing = await test({ peer: 'crm', url: nothingHere.url, apiKey: 'a-key-for-the-test' });
    expect(missing.body).toMatchObject({ outcome: 'not-found', status: 404, url: nothingHere.url });
    const other = await test({ peer: 'postsvc', url: elsewhere.url, apiKey: 'a-key-for-the-test' });
    expect(other.body).toMatchObject({ outcome: 'unreadable', status: 200 });
    // A web server is not OBS either.
    const web = await test({ peer: 'obs', url: elsewhere.url.replace('http', 'ws') });
    expect(web.body).toMatchObject({ outcome: 'unreadable' });
  });

  it('a peer that does not answer: no answer (bounded), one that is off: unreachable; never a 500', async () => {
    const hangs = await test({ peer: 'gateway', url: silent.url, apiKey: 'a-key-for-the-test' });
    expect(hangs.status).toBe(200);
    expect(hangs.body).toMatchObject({ outcome: 'no-answer', latencyMs: null });
    const off = `http://127.0.0.1:${await freePort()}`;
    const refused = await test({ peer: 'automation', url: off });
    expect(refused.body).toMatchObject({ outcome: 'unreachable', detail: 'connection refused' });
    const obsOff = await test({ peer: 'obs', url: off.replace('http', 'ws') });
    expect(obsOff.body).toMatchObject({ outcome: 'unreachable' });
  });

  it('a peer answering 5xx is failing, 429 throttled with its wait: the answer, not an error', async () => {
    sandbox.crm.faults.injectFault({ pathPrefix: '/api/v1/App/user', status: 503, times: 1 });
    const failing = await test({ peer: 'crm' });
    expect(failing.status).toBe(200);
    expect(failing.body).toMatchObject({ outcome: 'failing', status: 503 });
    sandbox.postsvc.faults.injectFault({
      pathPrefix: '/user',
      status: 429,
      headers: { 'Retry-After': '30' },
      times: 1,
    });
    const throttled = await test({ peer: 'postsvc' });
    expect(throttled.body).toMatchObject({ outcome: 'throttled', status: 429, retryAfterS: 30 });
  });
});

describe('Test connection: a saved secret goes only to the origin it was saved for (issue #35.3)', () => {
  it('an unsaved address elsewhere is tested without the saved key, saying whose it is', async () => {
    for (const [peer, savedAt] of [
      ['crm', sandbox.crm.url],
      ['postsvc', sandbox.postsvc.url],
      ['gateway', sandbox.gateway.url],
      ['automation', sandbox.automation.url],
    ] as const) {
      const answer = await test({ peer, url: `${elsewhere.url}/${peer}` });
      expect(answer.status).toBe(200);
      expect(answer.body, peer).toMatchObject({ credentials: 'none', savedKeyFor: originOf(savedAt) });
    }
    // The tests went there, and no saved key with them.
    expect(elsewhere.requests.length).toBe(4);
    expect(sandbox.secretsIn(elsewhere)).toEqual([]);
  });

  it('OBS elsewhere gets no saved password: the other OBS refuses, and the answer says whose it was', async () => {
    const answer = await test({ peer: 'obs', url: sandbox.otherObs.url });
    expect(answer.body).toMatchObject({
      outcome: 'refused-key',
      credentials: 'none',
      savedKeyFor: originOf(sandbox.obs.url),
    });
    // With the password in the same request, the same OBS lets the test in.
    const given = await test({ peer: 'obs', url: sandbox.otherObs.url, password: OBS_PASSWORD });
    expect(given.body).toMatchObject({ outcome: 'reachable', credentials: 'given' });
  });

  it('a secret given in the request goes to the address given, alone', async () => {
    const answer = await test({ peer: 'crm', url: elsewhere.url, apiKey: 'a-key-issued-by-the-new-crm' });
    expect(answer.body).toMatchObject({ credentials: 'given', outcome: 'unreadable' });
    expect(elsewhere.requests.map((request) => request.headers['x-api-key'])).toEqual([
      'a-key-issued-by-the-new-crm',
    ]);
    expect(sandbox.secretsIn(elsewhere)).toEqual([]);
  });

  it('the same origin on another path is where the key was saved for: it goes along', async () => {
    const answer = await test({ peer: 'crm', url: `${sandbox.crm.url}/` });
    expect(answer.body).toMatchObject({ credentials: 'saved', outcome: 'reachable' });
  });

  it('a redirect is not followed: the saved key never reaches the origin it points to', async () => {
    const moved = await startTestBridge(
      {
        CRM_URL: redirector.url,
        CRM_API_KEY: sandbox.crm.apiKey,
        GATEWAY_URL: redirector.url,
        GATEWAY_API_KEY: sandbox.gateway.apiKey,
      },
      { areas: ['settings', 'health'] },
    );
    try {
      for (const peer of ['crm', 'gateway']) {
        const answer = await moved.call('POST', '/api/settings/test-connection', { body: { peer } });
        expect(answer.body, peer).toMatchObject({
          outcome: 'redirected',
          credentials: 'saved',
          status: 302,
          detail: expect.stringContaining(elsewhere.url),
        });
      }
      const tested = redirector.requests.filter(({ url }) =>
        /App\/user|studio-bridge-connection-test/.test(url),
      );
      expect(tested.length).toBeGreaterThanOrEqual(2);
      // Neither the tests nor the bridge's own health probes followed the redirect.
      expect(elsewhere.requests).toEqual([]);
      // …and /health does not read a peer whose address redirects as reachable: every call to it fails.
      await eventually(async () => {
        const peers = (await moved.call('GET', '/health')).body.peers;
        return peers.crm.state === 'failing' && peers.gateway.state === 'failing';
      });
    } finally {
      await moved.close();
    }
  });

  it('no address in force and none given: not configured, nothing sent', async () => {
    const bare = await startTestBridge({}, { areas: ['settings'] });
    try {
      const answer = await bare.call('POST', '/api/settings/test-connection', { body: { peer: 'gateway' } });
      expect(answer.body).toMatchObject({ outcome: 'not-configured', url: null, credentials: 'none' });
    } finally {
      await bare.close();
    }
  });
});

describe('Test connection: input is checked first', () => {
  it('400 naming the field and the rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ peer: 'fax' }, 'peer'],
      [{}, 'peer'],
      [{ peer: 'crm', url: 'ftp://crm.example' }, 'url'],
      [{ peer: 'obs', url: 'http://obs.example:4455' }, 'url'],
      [{ peer: 'automation', authHeader: 'no colon here' }, 'authHeader'],
      [{ peer: 'postsvc', apiKey: '' }, 'apiKey'],
      [{ peer: 'gateway', password: 'not a gateway field' }, ''],
    ];
    for (const [body, field] of cases) {
      const answer = await test(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
      expect(answer.body.details, JSON.stringify(body)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: field ? `body.${field}` : 'body', rule: expect.any(String) }),
        ]),
      );
    }
  });

  it('needs the bridge key', async () => {
    const answer = await bridge.call('POST', '/api/settings/test-connection', {
      body: { peer: 'crm' },
      key: null,
    });
    expect(answer.status).toBe(401);
  });
});
