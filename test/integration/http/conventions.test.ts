import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';

let bridge: TestBridge;

beforeAll(async () => {
  bridge = await startTestBridge(
    { BRIDGE_CORS_ORIGINS: 'https://crm.example.test' },
    { logLevel: 'info', logToStdout: false },
  );
});
afterAll(() => bridge.close());

describe('HTTP conventions (DESIGN §4)', () => {
  it('answers 413 over the 1 MB body limit, without crashing', async () => {
    const big = { filename: 'x'.repeat(1_100_000) };
    const response = await bridge.call('POST', '/api/recorder/filename', { body: big });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect((await bridge.call('GET', '/health')).status).toBe(200);
  });

  it('answers 415 for a body that is not JSON and 400 for broken JSON', async () => {
    const text = await bridge.call('POST', '/api/recorder/filename', {
      rawBody: 'filename=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const broken = await bridge.call('POST', '/api/recorder/filename', { rawBody: '{"filename":' });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toContain('not valid JSON');
  });

  it('names the field and the rule in validation errors', async () => {
    const response = await bridge.call('POST', '/api/recorder/filename', { body: { filename: 42 } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toMatch(/^body\.filename: /);
    const query = await bridge.call('GET', '/api/activity?limit=0');
    expect(query.status).toBe(400);
    expect(query.body.error).toMatch(/query\.limit/);
  });

  it('gives every response a request id, echoing a sane one', async () => {
    const generated = await bridge.call('GET', '/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await bridge.call('GET', '/health', { headers: { 'x-request-id': 'trace-42' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42');
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const response = await bridge.call('GET', '/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      success: false,
      error: 'no route GET /api/nothing-here',
      code: 'NOT_FOUND',
    });
  });

  it('allows CORS only for configured origins', async () => {
    const allowed = await fetch(`${bridge.url}/api/recorder/filename`, {
      method: 'OPTIONS',
      headers: { origin: 'https://crm.example.test', 'access-control-request-method': 'POST' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://crm.example.test');
    const denied = await fetch(`${bridge.url}/api/recorder/filename`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a foreign Host header on loopback (DNS rebinding), but not on webhooks', async () => {
    const { request } = await import('node:http');
    const status = (urlPath: string, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(bridge.url);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: urlPath,
            method,
            headers: {
              host: 'rebind.evil.example',
              'x-api-key': TEST_API_KEY,
              'content-type': 'application/json',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(method === 'POST' ? '{"probe":true}' : undefined);
      });
    expect(await status('/api/activity')).toBe(403);
    expect(await status('/webhooks/test', 'POST')).toBe(200);
  });

  it('keeps the recorder filename in memory: POST validates, GET returns it', async () => {
    const bad = await bridge.call('POST', '/api/recorder/filename', {
      body: { filename: 'Ep 12: Jane/Doe' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('must not contain ":"');
    expect(bad.body.details.suggestion).toMatch(/^\d{8}_Ep_12_Jane_Doe$/);
    const good = await bridge.call('POST', '/api/recorder/filename', {
      body: { filename: '20261122_Ep_12_Jane_Doe' },
    });
    // No recorder configured (not in sandbox): the name is held, as the spec says (DESIGN §6.7).
    expect(good.body).toEqual({
      success: true,
      filename: '20261122_Ep_12_Jane_Doe',
      requested: '20261122_Ep_12_Jane_Doe',
      setAt: expect.any(String),
      contentProductionId: null,
      state: 'held',
      failure: null,
      obsFilename: null,
      clearedAt: null,
      clearedByRestart: null,
    });
    const read = await bridge.call('GET', '/api/recorder/filename');
    expect(read.body).toMatchObject({
      success: true,
      filename: '20261122_Ep_12_Jane_Doe',
      setAt: expect.any(String),
    });
  });

  it('streams activity on /events (SSE)', async () => {
    const controller = new AbortController();
    const response = await fetch(`${bridge.url}/events?key=${TEST_API_KEY}`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'sse-check' } });
    await eventually(async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return text.includes('sse-check');
    });
    controller.abort();
    const frame = text.split('\n\n').find((f) => f.includes('sse-check'))!;
    expect(frame).toMatch(/^id: \d+\nevent: activity\ndata: /m);
    const data = JSON.parse(frame.split('data: ')[1]!);
    expect(data).toMatchObject({ type: 'recorder.filename', level: 'info' });
  });

  it('writes settings to the config file (mode 0600), masking secrets when read back', async () => {
    const put = await bridge.call('PUT', '/api/settings', {
      body: {
        values: { POSTSVC_URL: 'https://post.example.test/api', POSTSVC_API_KEY: 'provider-secret-9876' },
      },
    });
    expect(put.body).toEqual({
      success: true,
      restartRequired: true,
      written: ['POSTSVC_URL', 'POSTSVC_API_KEY'],
    });
    const bad = await bridge.call('PUT', '/api/settings', {
      body: { values: { COLLECT_INTERVAL_HOURS: '-3' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('COLLECT_INTERVAL_HOURS');
    const fromEnv = await bridge.call('PUT', '/api/settings', {
      body: { values: { BRIDGE_API_KEY: 'another-key-0123456789' } },
    });
    expect(fromEnv.status).toBe(400);
    const got = await bridge.call('GET', '/api/settings');
    const byKey = Object.fromEntries(got.body.settings.map((s: { key: string }) => [s.key, s]));
    expect(byKey.BRIDGE_API_KEY).toMatchObject({
      value: `••••${TEST_API_KEY.slice(-4)}`,
      source: 'env',
      secret: true,
    });
    expect(JSON.stringify(got.body)).not.toContain(TEST_API_KEY);
    const configPath = path.join(bridge.dataDir, 'config.json');
    expect(JSON.parse(readFileSync(configPath, 'utf8'))).toMatchObject({
      POSTSVC_API_KEY: 'provider-secret-9876',
    });
    const { statSync } = await import('node:fs');
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
  });

  it('logs one line per request with its id, and never the key', async () => {
    await bridge.call('POST', `/webhooks/test?key=${TEST_API_KEY}`, { key: null, body: { probe: true } });
    await bridge.call('GET', '/api/activity', { headers: { 'x-request-id': 'log-check-1' } });
    const logFile = path.join(bridge.dataDir, 'logs', 'bridge.log');
    const log = await eventually(() => {
      const text = readFileSync(logFile, 'utf8');
      return text.includes('log-check-1') ? text : '';
    });
    expect(log).not.toContain(TEST_API_KEY);
    const line = JSON.parse(log.split('\n').find((l) => l.includes('log-check-1'))!);
    expect(line).toMatchObject({ req: { id: 'log-check-1', method: 'GET' }, res: { statusCode: 200 } });
  });
});
