import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../main/peers/gateway.js';
import { PeerError } from '../../../main/peers/peer-error.js';

/** A loopback server that records what the client sends and answers from a script. */
interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}
let server: Server | undefined;
async function peer(answer: (req: Received) => { status: number; body?: unknown }) {
  const received: Received[] = [];
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      received.push(entry);
      const { status, body } = answer(entry);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received };
}
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

const settings = { isPublic: true, chatEnabled: false, dvr: true };

describe('gateway client (DESIGN §5.3)', () => {
  it('sends streamSource only when given, with the key and an idempotency key', async () => {
    const gw = await peer(() => ({
      status: 200,
      body: { id: 'b1', embedUrl: 'https://g/e/b1', dashboardUrl: 'https://g/d/b1' },
    }));
    const client = new GatewayClient({ url: gw.url, apiKey: 'gw-key' });
    await client.createBroadcast({ name: 'A', scheduledAt: '2026-06-01T18:00:00Z', settings }, 'idem-1');
    await client.createBroadcast(
      {
        name: 'B',
        description: 'd',
        scheduledAt: '2026-06-01T19:00:00Z',
        channelId: 'main',
        streamSource: { type: 'rtmp', url: 'rtmp://in/app', key: 'abcd-efgh-ijkl' },
        settings,
      },
      'idem-2',
    );
    expect(gw.received[0]).toMatchObject({ method: 'POST', url: '/streamhost/broadcasts' });
    expect(gw.received[0]!.body).toEqual({ name: 'A', scheduledAt: '2026-06-01T18:00:00Z', settings });
    expect(gw.received[1]!.body).toEqual({
      name: 'B',
      description: 'd',
      scheduledAt: '2026-06-01T19:00:00Z',
      channelId: 'main',
      streamSource: { type: 'rtmp', url: 'rtmp://in/app', key: 'abcd-efgh-ijkl' },
      settings,
    });
    expect(gw.received[1]!.headers).toMatchObject({
      authorization: 'Bearer gw-key',
      'idempotency-key': 'idem-2',
    });
  });

  it('validates answers: a broadcast without status is the peer’s error, not a crash', async () => {
    const gw = await peer((req) =>
      req.url.endsWith('/ok')
        ? {
            status: 200,
            body: { id: 'ok', name: 'N', status: 'live', viewerCount: 12, startedAt: '2026-06-01T18:00:00Z' },
          }
        : { status: 200, body: { id: 'bad', name: 'N' } },
    );
    const client = new GatewayClient({ url: gw.url });
    expect(await client.getBroadcast('ok')).toEqual({
      id: 'ok',
      name: 'N',
      status: 'live',
      viewerCount: 12,
      startedAt: '2026-06-01T18:00:00Z',
      streamHealth: null,
    });
    await expect(client.getBroadcast('bad')).rejects.toMatchObject({ kind: 'invalid-body', peer: 'gateway' });
  });

  it('publishes once: a 503 is not repeated inside the call (the queue decides)', async () => {
    const gw = await peer(() => ({ status: 503, body: { error: 'busy', code: 'STREAMHOST_ERROR' } }));
    const client = new GatewayClient({ url: gw.url });
    const error = await client
      .publish('/videosite/upload', { title: 'T' }, 'publish:pp1:1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerError);
    expect(gw.received).toHaveLength(1);
    expect(gw.received[0]!.headers['idempotency-key']).toBe('publish:pp1:1');
  });

  it('returns the publish result, numeric platform ids as text', async () => {
    const gw = await peer(() => ({
      status: 200,
      body: { platformUrl: 'https://a/1', platformId: 123, streamUrl: null },
    }));
    const client = new GatewayClient({ url: gw.url });
    expect(await client.publish('/altvideo/upload', { title: 'T' }, 'k')).toEqual({
      platformUrl: 'https://a/1',
      platformId: '123',
    });
  });
});
