import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';

/**
 * Issue #35.6 (DESIGN §4): against DNS rebinding, a bridge bound to any loopback address
 * (127.0.0.0/8, ::1) answers only requests naming a loopback host; webhooks are exempt (they come
 * through tunnels under a public name). Bound to 0.0.0.0 there is no such check (the LAN's names vary).
 */

const bridges: TestBridge[] = [];
afterAll(async () => {
  for (const bridge of bridges) await bridge.close();
});

async function boundTo(host: string): Promise<TestBridge> {
  const bridge = await startTestBridge({ BRIDGE_HOST: host }, { areas: ['health', 'webhooks', 'settings'] });
  bridges.push(bridge);
  return bridge;
}

/** The status of a request to `bridge` that names `hostHeader` as its Host. */
function statusWithHost(bridge: TestBridge, hostHeader: string, path: string, method = 'GET') {
  const url = new URL(bridge.url);
  return new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path,
        method,
        headers: { host: hostHeader, 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? '{"probe":true}' : undefined);
  });
}

describe.each(['127.0.0.2', '::1'])('bound to %s', (host) => {
  it('refuses a foreign Host on the dashboard and on /api/settings (with the key), not on webhooks', async () => {
    const bridge = await boundTo(host);
    expect(await statusWithHost(bridge, 'evil.example', '/')).toBe(403);
    expect(await statusWithHost(bridge, `evil.example:${new URL(bridge.url).port}`, '/api/settings')).toBe(
      403,
    );
    expect(await statusWithHost(bridge, 'evil.example', '/webhooks/test', 'POST')).toBe(200);
  });

  it('answers requests that name the bound address or another loopback name', async () => {
    const bridge = await boundTo(host);
    const port = new URL(bridge.url).port;
    const own = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    for (const name of [own, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
      expect(await statusWithHost(bridge, name, '/api/settings'), name).toBe(200);
  });
});

describe('bound to 0.0.0.0 (the LAN), as documented', () => {
  it('does not check the Host: the LAN reaches it by names the bridge cannot know', async () => {
    const bridge = await boundTo('0.0.0.0');
    expect(await statusWithHost(bridge, 'studio-server.lan', '/api/settings')).toBe(200);
  });
});
