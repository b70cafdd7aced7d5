import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../main/sandbox/index.js';

describe('sandbox publishing gateway and live-broadcast host', () => {
  let gateway: SandboxGateway;
  let clock = Date.parse('2026-06-01T18:00:00Z');
  const call = async (method: string, path: string, body?: unknown, key: string | null = gateway.apiKey) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: JSON.parse(await res.text()) };
  };
  const start = async (options: Parameters<typeof startSandboxGateway>[0] = {}) => {
    clock = Date.parse('2026-06-01T18:00:00Z');
    gateway = await startSandboxGateway({ now: () => new Date(clock), ...options });
  };
  const broadcast = (extra: Record<string, unknown> = {}) => ({
    name: 'Live Q&A',
    scheduledAt: '2026-06-02T17:00:00Z',
    settings: { isPublic: true, chatEnabled: true, dvr: false },
    ...extra,
  });

  afterEach(() => gateway.stop());

  it('needs the Bearer key when it has one', async () => {
    await start();
    const res = await call('GET', '/streamhost/broadcasts/x', undefined, null);
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('keeps a broadcast created until its encoder connects, live until End, then complete; never live by itself', async () => {
    await start();
    const created = await call('POST', '/streamhost/broadcasts', broadcast({ description: 'questions' }));
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      id: expect.any(String),
      embedUrl: expect.any(String),
      dashboardUrl: expect.any(String),
    });
    const id = created.json.id as string;
    const read = async () => (await call('GET', `/streamhost/broadcasts/${id}`)).json;

    // A day passes, its start with it: no encoder, so it is still not live.
    clock += 86_400_000;
    expect(await read()).toMatchObject({ status: 'created', viewerCount: 0, startedAt: null });
    // Nothing to end yet.
    expect((await call('POST', `/streamhost/broadcasts/${id}/end`)).status).toBe(409);

    gateway.startEncoder(id);
    const liveAt = new Date(clock).toISOString();
    clock += 60_000;
    const live = await read();
    expect(live).toMatchObject({ status: 'live', startedAt: liveAt });
    expect(live.viewerCount).toBeGreaterThan(0);
    expect(['excellent', 'good', 'fair', 'poor']).toContain(live.streamHealth);

    const ended = await call('POST', `/streamhost/broadcasts/${id}/end`);
    expect(ended.json).toEqual({ id, status: 'complete' });
    expect(await read()).toMatchObject({
      id,
      name: 'Live Q&A',
      status: 'complete',
      viewerCount: 0,
      startedAt: liveAt,
    });
    // Ending twice is fine; a complete broadcast cannot go live again.
    expect((await call('POST', `/streamhost/broadcasts/${id}/end`)).json.status).toBe('complete');
    expect(() => gateway.startEncoder(id)).toThrow(/cannot go live again/);

    expect((await call('DELETE', `/streamhost/broadcasts/${id}`)).json).toEqual({ success: true });
    expect((await read()).status).toBe('revoked');
    expect((await call('DELETE', `/streamhost/broadcasts/${id}`)).status).toBe(200);
    expect((await call('GET', '/streamhost/broadcasts/unknown')).status).toBe(404);
  });

  it('an older gateway without End answers it 404; the encoder control route takes a broadcast live', async () => {
    await start({ endSupported: false });
    const id = (await call('POST', '/streamhost/broadcasts', broadcast())).json.id as string;
    const control = await fetch(`${gateway.url}/__sandbox/encoder`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Key': gateway.controlKey },
      body: JSON.stringify({ broadcastId: id }),
    });
    expect(control.status).toBe(200);
    expect((await call('GET', `/streamhost/broadcasts/${id}`)).json.status).toBe('live');
    const end = await call('POST', `/streamhost/broadcasts/${id}/end`);
    expect(end.status).toBe(404);
    expect((await call('GET', `/streamhost/broadcasts/${id}`)).json.status).toBe('live');
  });

  it('answers the spec’s error codes: CHANNEL_NOT_FOUND, RTMP_INVALID, CONFLICT, AUTH_EXPIRED, STREAMHOST_ERROR', async () => {
    await start();
    const channel = await call('POST', '/streamhost/broadcasts', broadcast({ channelId: 'nope' }));
    expect(channel.status).toBe(404);
    expect(channel.json).toMatchObject({
      code: 'CHANNEL_NOT_FOUND',
      error: expect.any(String),
      details: expect.any(String),
    });
    const rtmp = await call(
      'POST',
      '/streamhost/broadcasts',
      broadcast({ streamSource: { type: 'rtmp', url: 'http://example.com/live', key: 'k' } }),
    );
    expect(rtmp.json.code).toBe('RTMP_INVALID');
    const ok = await call(
      'POST',
      '/streamhost/broadcasts',
      broadcast({
        channelId: 'main',
        streamSource: { type: 'rtmp', url: 'rtmps://ingest.example/app', key: 'k' },
      }),
    );
    expect(ok.status).toBe(200);
    const conflict = await call(
      'POST',
      '/streamhost/broadcasts',
      broadcast({ scheduledAt: '2026-06-02T17:29:00Z' }),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.json.code).toBe('CONFLICT');
    expect(conflict.json.details).toContain(ok.json.id);
    const otherChannel = await call('POST', '/streamhost/broadcasts', broadcast({ channelId: 'backup' }));
    expect(otherChannel.status).toBe(200);
    expect(
      (await call('POST', '/streamhost/broadcasts', broadcast({ scheduledAt: '2026-06-02T17:30:00Z' })))
        .status,
    ).toBe(200);
    const invalid = await call('POST', '/streamhost/broadcasts', {
      name: 'x',
      scheduledAt: '2026-06-02 17:00:00',
    });
    expect(invalid.json.code).toBe('VALIDATION_ERROR');

    gateway.setSessionExpired(true);
    const expired = await call('GET', `/streamhost/broadcasts/${ok.json.id}`);
    expect(expired.status).toBe(401);
    expect(expired.json.code).toBe('AUTH_EXPIRED');
    gateway.setSessionExpired(false);
    gateway.setHostFailure('host returned 503');
    const failing = await call(
      'POST',
      '/streamhost/broadcasts',
      broadcast({ scheduledAt: '2026-06-05T10:00:00Z' }),
    );
    expect(failing.status).toBe(502);
    expect(failing.json).toMatchObject({ code: 'STREAMHOST_ERROR', details: 'host returned 503' });
  });

  it('publishes on the route table paths; livestream paths return stream details; streamhost needs them', async () => {
    await start();
    const upload = await call('POST', '/videosite/upload', {
      title: 'Ep 1',
      description: 'notes',
      thumbnailUrl: 'https://img.example/1.jpg',
      scheduledAt: '2026-06-02T10:00:00Z',
    });
    expect(upload.status).toBe(200);
    expect(upload.json).toEqual({
      platformId: expect.any(String),
      platformUrl: expect.stringContaining('videosite'),
    });
    const live = await call('POST', '/videosite/livestream', { title: 'Live', publishType: 'Livestream' });
    expect(live.json.streamUrl).toMatch(/^rtmps?:\/\//);
    expect(live.json.streamKey).toBeTruthy();
    const alt = await call('POST', '/altvideo/livestream', { title: 'Live' });
    expect(alt.json.streamUrl).toMatch(/^rtmps?:\/\//);

    const dependent = await call('POST', '/streamhost/livestream', { title: 'Live' });
    expect(dependent.status).toBe(400);
    expect(dependent.json.code).toBe('RTMP_INVALID');
    const restream = await call('POST', '/streamhost/livestream', {
      title: 'Live',
      streamUrl: live.json.streamUrl,
      streamKey: live.json.streamKey,
    });
    expect(restream.status).toBe(200);
    expect(restream.json.platformUrl).toContain('streamhost');

    expect((await call('POST', '/altvideo/upload', { description: 'no title' })).json.code).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      (await call('POST', '/altvideo/upload', { title: 't', scheduledAt: '2026-06-02 10:00:00' })).status,
    ).toBe(400);
    expect((await call('POST', '/podcast/upload', { title: 't' })).status).toBe(404);

    const publishes = gateway.publishes();
    expect(publishes.map((p) => [p.path, p.status])).toEqual([
      ['/videosite/upload', 200],
      ['/videosite/livestream', 200],
      ['/altvideo/livestream', 200],
      ['/streamhost/livestream', 400],
      ['/streamhost/livestream', 200],
      ['/altvideo/upload', 400],
      ['/altvideo/upload', 400],
    ]);
    expect(publishes[0]?.body).toMatchObject({ title: 'Ep 1', thumbnailUrl: 'https://img.example/1.jpg' });
  });

  it('can run without auth and serves the embed page it links to', async () => {
    await start({ requireAuth: false });
    const created = await call('POST', '/streamhost/broadcasts', broadcast(), null);
    expect(created.status).toBe(200);
    const page = await fetch(created.json.embedUrl as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Live Q&#38;A');
  });
});
