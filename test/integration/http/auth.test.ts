import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';

interface OpenApiOperation {
  security?: unknown[];
}

let bridge: TestBridge;
let operations: { method: string; path: string; op: OpenApiOperation }[];

beforeAll(async () => {
  bridge = await startTestBridge();
  const { status, body } = await bridge.call('GET', '/openapi.json');
  expect(status).toBe(200);
  operations = Object.entries(body.paths as Record<string, Record<string, OpenApiOperation>>).flatMap(
    ([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => bridge.close());

/** `/streamhost/status/{broadcastId}` → `/streamhost/status/x1` */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');

async function send(method: string, path: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(bridge.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: method === 'GET' ? undefined : '{}',
    signal: controller.signal,
  });
  controller.abort(); // /events streams forever: the status is all we need
  return response.status;
}

describe('bridge-key auth on every protected route (walked from /openapi.json)', () => {
  it('lists a route table that includes the foundation routes and all eleven webhooks', () => {
    const paths = operations.map((o) => `${o.method} ${o.path}`);
    for (const expected of [
      'GET /health',
      'GET /openapi.json',
      'GET /events',
      'GET /api/activity',
      'GET /api/jobs',
      'POST /api/recorder/filename',
      'GET /api/recorder/filename',
      'GET /api/settings',
      'PUT /api/settings',
      'POST /webhooks/test',
      'POST /webhooks/guest-created',
      'POST /webhooks/guest-updated',
      'POST /webhooks/content-created',
      'POST /webhooks/content-updated',
      'POST /webhooks/platform-created',
      'POST /webhooks/platform-updated',
      'POST /webhooks/clip-created',
      'POST /webhooks/clip-updated',
      'POST /webhooks/social-created',
      'POST /webhooks/social-updated',
      'POST /webhooks/social-deleted',
    ]) {
      expect(paths).toContain(expected);
    }
  });

  it('answers 401 without a key and with a wrong key, and lets the right key through', async () => {
    const protectedOps = operations.filter(
      (o) => !(Array.isArray(o.op.security) && o.op.security.length === 0),
    );
    expect(protectedOps.length).toBeGreaterThan(15);
    for (const { method, path } of protectedOps) {
      const url = concrete(path);
      expect(await send(method, url, {}), `${method} ${url} without key`).toBe(401);
      expect(
        await send(method, url, { authorization: 'Bearer wrong-key-wrong-key-1234' }),
        `${method} ${url} wrong key`,
      ).toBe(401);
      expect(
        await send(method, url, { 'x-api-key': 'wrong-key-wrong-key-1234' }),
        `${method} ${url} wrong X-Api-Key`,
      ).toBe(401);
      const withKey = await send(method, url, { authorization: `Bearer ${TEST_API_KEY}` });
      expect(withKey, `${method} ${url} with the key`).not.toBe(401);
      // 4xx for the empty body, or 503 when the route's peer is not configured: never a 500.
      expect([500, 502, 504], `${method} ${url} with the key`).not.toContain(withKey);
    }
  });

  it('accepts X-Api-Key as well as Bearer, and ?key= only on /events and webhooks', async () => {
    expect(
      (await bridge.call('GET', '/api/activity', { key: null, headers: { 'x-api-key': TEST_API_KEY } }))
        .status,
    ).toBe(200);
    expect((await bridge.call('GET', `/api/activity?key=${TEST_API_KEY}`, { key: null })).status).toBe(401);
    expect(await send('GET', `/events?key=${TEST_API_KEY}`, {})).toBe(200);
    expect(
      (await bridge.call('POST', `/webhooks/test?key=${TEST_API_KEY}`, { key: null, body: { test: true } }))
        .status,
    ).toBe(200);
  });

  it('keeps /health public, adding peers, jobs and quota only for the key', async () => {
    const open = await bridge.call('GET', '/health', { key: null });
    expect(open.status).toBe(200);
    expect(open.body).toEqual({
      success: true,
      status: 'ok',
      version: expect.any(String),
      uptimeS: expect.any(Number),
    });
    const full = await bridge.call('GET', '/health');
    expect(full.body).toMatchObject({ success: true, sandbox: false, jobs: { pending: expect.any(Number) } });
    // The recorder's OBS is a peer too (issue #38.3), listed like the others when not configured.
    expect(Object.keys(full.body.peers)).toEqual(['crm', 'postsvc', 'gateway', 'automation', 'obs']);
    expect(full.body.peers.crm).toMatchObject({ configured: false, state: null });
    expect(full.body.peers.obs).toMatchObject({ configured: false, state: null });
    expect((await bridge.call('GET', '/health', { key: 'wrong-key-wrong-key-1234' })).status).toBe(401);
  });
});
