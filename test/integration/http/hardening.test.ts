import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signEspoBody } from '../../../main/http/espo-signature.js';
import { defaultHttpLimits } from '../../../main/http/http-server.js';
import { eventually, startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { openRaw, requestHead, type RawConnection } from '../../support/raw-http.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * Issue #12, HTTP level: no work before authentication, bounded connections and stream
 * buffers, no key in the log, and a clear 4xx for malformed requests. Everything is behaviour
 * seen from a client (an answer, a closed socket), never a measured speed.
 */

const SECRET = 'hardening-secret';
/** Short enough that a stalled request is seen closed within a test, long enough for any real one. */
const REQUEST_TIMEOUT_MS = 2_000;
const HEADERS_TIMEOUT_MS = 1_000;
const SSE_BUFFER_BYTES = 64 * 1024;

let keyed: TestBridge;
let signed: TestBridge;
const logsMadeByAnother = tempDir('bridge-hardening');

beforeAll(async () => {
  // A logs folder someone else made (0755), with an old world-readable log in it.
  mkdirSync(path.join(logsMadeByAnother.path, 'logs'), { mode: 0o755 });
  writeFileSync(path.join(logsMadeByAnother.path, 'logs', 'bridge.log'), '', { mode: 0o644 });
  keyed = await startTestBridge(
    {},
    {
      dataDir: logsMadeByAnother.path,
      logLevel: 'info',
      areas: ['health', 'webhooks', 'recorder', 'broadcasts', 'guests', 'clips'],
      tuning: {
        http: {
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
          headersTimeoutMs: HEADERS_TIMEOUT_MS,
          timeoutCheckIntervalMs: 250,
          sseClientBufferBytes: SSE_BUFFER_BYTES,
        },
      },
    },
  );
  signed = await startTestBridge({ CRM_WEBHOOK_SECRETS: SECRET }, { areas: ['health', 'webhooks'] });
});
afterAll(async () => {
  await keyed?.close();
  await signed?.close();
  logsMadeByAnother.remove();
});

/** Fails with `what` if `promise` has not settled within `ms` (an answer that never comes). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, never]).finally(() => clearTimeout(timer));
}

/** Sends only the head of a POST that announces a 1 MB JSON body, and never the body. */
async function postHeadOnly(bridge: TestBridge, urlPath: string, headers: Record<string, string> = {}) {
  const connection = await openRaw(bridge.url);
  connection.socket.write(
    requestHead('POST', urlPath, {
      'content-type': 'application/json',
      'content-length': 1_000_000,
      ...headers,
    }),
  );
  return connection;
}

describe('3. no work before authentication', () => {
  it('answers 401 to a keyed route before reading its body, and closes the connection', async () => {
    const connection = await postHeadOnly(keyed, '/api/recorder/filename');
    const head = await within(connection.responseHead(), 5_000, 'answer');
    expect(head.status).toBe(401);
    await within(connection.closed(), 5_000, 'close');
  });

  it('answers 401 to a webhook without the key (no secrets set) before reading its body', async () => {
    const connection = await postHeadOnly(keyed, '/webhooks/guest-created');
    expect((await within(connection.responseHead(), 5_000, 'answer')).status).toBe(401);
    const wrongKey = await postHeadOnly(keyed, '/webhooks/guest-created?key=wrong');
    expect((await within(wrongKey.responseHead(), 5_000, 'answer')).status).toBe(401);
  });

  it('answers 401 to a webhook with no well-formed signature before reading its body', async () => {
    const unsigned = await postHeadOnly(signed, '/webhooks/guest-created');
    expect((await within(unsigned.responseHead(), 5_000, 'answer')).status).toBe(401);
    const garbled = await postHeadOnly(signed, '/webhooks/guest-created', { signature: 'not-base64-at-all' });
    expect((await within(garbled.responseHead(), 5_000, 'answer')).status).toBe(401);
    const noMac = await postHeadOnly(signed, '/webhooks/guest-created', {
      signature: Buffer.from('wh-1:tooshort').toString('base64'),
    });
    expect((await within(noMac.responseHead(), 5_000, 'answer')).status).toBe(401);
  });

  it('still verifies a well-formed signature against the body: wrong MAC 401, right MAC accepted', async () => {
    const raw = JSON.stringify({ id: 'guest-sig-1', name: 'Signed' });
    const forged = await signed.call('POST', '/webhooks/guest-created', {
      key: null,
      rawBody: raw,
      headers: { signature: signEspoBody(raw, 'not-the-secret', 'wh-1') },
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error).toContain('does not match');
    const genuine = await signed.call('POST', '/webhooks/guest-created', {
      key: null,
      rawBody: raw,
      headers: { signature: signEspoBody(raw, SECRET, 'wh-1') },
    });
    expect(genuine.status).toBeLessThan(300);
  });

  it('closes a request whose body never finishes (request timeout)', async () => {
    const connection = await openRaw(keyed.url);
    connection.socket.write(
      requestHead('POST', '/api/recorder/filename', {
        'content-type': 'application/json',
        'content-length': 100,
        authorization: `Bearer ${TEST_API_KEY}`,
      }) + '{"filename":',
    );
    await within(connection.closed(), REQUEST_TIMEOUT_MS + 5_000, 'close of a stalled body');
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose headers never finish (headers timeout)', async () => {
    const connection = await openRaw(keyed.url);
    connection.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await within(connection.closed(), HEADERS_TIMEOUT_MS + 5_000, 'close of stalled headers');
  });

  it("keeps an answered connection for the client's next request past 5 s, and says for how long", async () => {
    // Node's 5 s keep-alive was shorter than clients hold an idle connection: one reusing it just as
    // the bridge closed it met a reset before any answer (a POST that a client may not resend).
    const connection = await openRaw(keyed.url);
    connection.socket.write(requestHead('GET', '/health'));
    const first = await connection.responseHead();
    expect(first.headers['keep-alive']).toBe(`timeout=${defaultHttpLimits.keepAliveTimeoutMs / 1000}`);
    // Past the old 5 s (Node closed such a connection at about 6 s), and past this bridge's 1 s
    // headers timeout: an idle connection waits for the next request.
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    expect(connection.isClosed()).toBe(false);
    const before = connection.received().length;
    connection.socket.write(requestHead('GET', '/health'));
    await eventually(() => /^HTTP\/1\.1 200/.test(connection.received().slice(before)));
    connection.socket.destroy();
  });

  it('keeps /events open past the request timeout (SSE is exempt)', async () => {
    const stream = await openRaw(keyed.url);
    stream.socket.write(requestHead('GET', '/events', { authorization: `Bearer ${TEST_API_KEY}` }));
    expect((await stream.responseHead()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + 1_000));
    expect(stream.isClosed()).toBe(false);
    await keyed.call('POST', '/api/recorder/filename', { body: { filename: 'after-timeout' } });
    await eventually(() => stream.received().includes('after-timeout'));
    stream.socket.destroy();
  });
});

describe('3. at most so many open sockets in all, idle ones included (issue #25.5; per address: issue #35.4)', () => {
  const held: RawConnection[] = [];
  let capped: TestBridge;
  const CAP = 64;

  beforeAll(async () => {
    // The cap in all (1024 by default) lowered; there is no cap per address on sockets any more: per
    // address only unverified bodies are counted, after the headers (slow-bodies.test.ts).
    capped = await startTestBridge(
      {},
      { areas: ['health', 'webhooks'], tuning: { http: { maxConnections: CAP } } },
    );
  });
  afterEach(() => {
    for (const connection of held.splice(0)) connection.socket.destroy();
  });
  afterAll(() => capped?.close());

  it('answers a connection past the cap 503 (webhooks included) while all are busy, and serves again once one ends', async () => {
    for (let i = 0; i < CAP; i++) {
      // Each one a request in flight: its head sent, its body not yet.
      const connection = await openRaw(capped.url);
      connection.socket.write(
        requestHead('POST', `/webhooks/test?key=${TEST_API_KEY}`, {
          'content-type': 'application/json',
          'content-length': 100,
        }),
      );
      held.push(connection);
    }
    await eventually(async () => (await capped.call('GET', '/health')).status === 503);
    const overWebhook = await capped.call('POST', `/webhooks/test?key=${TEST_API_KEY}`, {
      key: null,
      body: { probe: 1 },
    });
    expect(overWebhook.status).toBe(503);
    expect(overWebhook.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(overWebhook.body).toMatchObject({ success: false, code: 'TOO_MANY_CONNECTIONS' });

    held.shift()!.socket.destroy();
    await eventually(async () => (await capped.call('GET', '/health')).status === 200);
  });

  it('closes idle sockets past the cap, oldest first, to serve a new one', async () => {
    for (let i = 0; i < CAP; i++) held.push(await openRaw(capped.url));
    // A kept-alive socket that has been answered is idle too.
    held[1]!.socket.write(requestHead('GET', '/health'));
    expect((await held[1]!.responseHead()).status).toBe(200);
    // A new connection (not one fetch keeps alive), served once they count as idle (a second
    // without a request: a socket just opened is about to send one).
    await eventually(async () => {
      const fresh = await openRaw(capped.url);
      fresh.socket.write(requestHead('GET', '/health'));
      const { status } = await fresh.responseHead();
      fresh.socket.destroy();
      return status === 200;
    });
    await within(held[0]!.closed(), 5_000, 'close of the oldest idle socket');
    expect(held[CAP - 1]!.isClosed()).toBe(false);
  });
});

describe('3b. BRIDGE_TRUST_PROXY: a tunnel on loopback, unverified bodies counted per forwarded client (issue #25.5, #35.4)', () => {
  const held: RawConnection[] = [];
  let tunnelled: TestBridge;
  const PER_CLIENT = 3;

  beforeAll(async () => {
    tunnelled = await startTestBridge(
      { BRIDGE_TRUST_PROXY: '1', CRM_WEBHOOK_SECRETS: SECRET },
      { areas: ['health', 'webhooks'], tuning: { http: { maxUnverifiedPerClient: PER_CLIENT } } },
    );
  });
  afterAll(async () => {
    for (const connection of held) connection.socket.destroy();
    await tunnelled?.close();
  });

  /** A webhook with a forged signature from `client` through the tunnel: its head and a first piece of body sent, the rest not yet. */
  async function unverifiedFrom(client: string) {
    const connection = await openRaw(tunnelled.url);
    connection.socket.write(
      requestHead('POST', '/webhooks/guest-created', {
        'content-type': 'application/json',
        'content-length': 1_000_000,
        signature: signEspoBody('{}', 'not-the-secret', 'hook-1'),
        'x-forwarded-for': client,
      }) + ' '.repeat(64 * 1024),
    );
    held.push(connection);
    return connection;
  }

  it("refuses a client's unverified body past its places, serves that client's /health and another client's webhook, and is not capped by the tunnel's sockets", async () => {
    for (let i = 0; i < PER_CLIENT; i++) await unverifiedFrom('203.0.113.7');
    const over = await unverifiedFrom('203.0.113.7');
    const refused = await within(over.responseHead(), 5_000, 'refusal');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // /health is never counted: the same client still gets it.
    const from = (client: string) =>
      tunnelled.call('GET', '/health', { key: null, headers: { 'x-forwarded-for': client } });
    expect((await from('203.0.113.7')).status).toBe(200);
    // Another client behind the same tunnel, more sockets from loopback than PER_CLIENT.
    for (let i = 0; i < PER_CLIENT; i++) await unverifiedFrom(`198.51.100.${i}`);
    const raw = JSON.stringify({ id: 'guest-tunnel-1', name: 'Through the tunnel' });
    const genuine = await tunnelled.call('POST', '/webhooks/guest-created', {
      key: null,
      rawBody: raw,
      headers: { signature: signEspoBody(raw, SECRET, 'hook-tunnel'), 'x-forwarded-for': '203.0.113.8' },
    });
    expect(genuine.status).toBeLessThan(300);
    // A forged hop before the tunnel's does not change who the client is (one hop trusted).
    const forgedHop = await unverifiedFrom('198.51.100.99, 203.0.113.7');
    expect((await within(forgedHop.responseHead(), 5_000, 'refusal')).status).toBe(503);
  });
});

describe('4. a stalled /events reader is closed, not buffered without limit', () => {
  it('closes the stalled reader past its buffer while a reading one keeps its stream', async () => {
    const stalled = await openRaw(keyed.url);
    stalled.socket.write(requestHead('GET', `/events?key=${TEST_API_KEY}`));
    expect((await stalled.responseHead()).status).toBe(200);
    stalled.socket.pause(); // stops reading: the kernel buffers fill, then the bridge's

    const reading = await openRaw(keyed.url);
    reading.socket.write(requestHead('GET', `/events?key=${TEST_API_KEY}`));
    expect((await reading.responseHead()).status).toBe(200);

    // A clip whose aspect ratio is none of the known ones makes a clips.fit warning that quotes
    // it: ~0.5 MB per event. Pump well past what the kernel's socket buffers take (a few MB on
    // loopback) plus the bridge's own per-client buffer.
    const pumpUntilBytes = 8 * 1024 * 1024;
    for (let round = 0; round < 400 && reading.received().length < pumpUntilBytes; round++) {
      const clip = { id: `clip-big-${round}`, name: 'Big clip', aspectRatio: 'x'.repeat(250_000) };
      const response = await keyed.call('POST', `/webhooks/clip-created?key=${TEST_API_KEY}`, {
        key: null,
        body: clip,
      });
      expect(response.status).toBe(200);
      await eventually(() => reading.received().includes(`clip-big-${round}`));
    }
    expect(reading.received().length).toBeGreaterThanOrEqual(pumpUntilBytes);

    stalled.socket.resume(); // reads what the kernel kept, then finds the connection closed
    await within(stalled.closed(), 10_000, 'close of the stalled reader');
    expect(stalled.received().length).toBeLessThan(reading.received().length);

    expect(reading.isClosed()).toBe(false);
    await keyed.call('POST', '/api/recorder/filename', { body: { filename: 'still-reading' } });
    await eventually(() => reading.received().includes('still-reading'));
    reading.socket.destroy();
  }, 120_000);
});

describe('5. the key never reaches the log; the log is 0600', () => {
  it('redacts a query key whose name is percent-encoded', async () => {
    const queries = [`%6bey=${TEST_API_KEY}`, `k%65y=${TEST_API_KEY}&x=1`, `KEY=${TEST_API_KEY}`];
    for (const [index, query] of queries.entries()) {
      const controller = new AbortController();
      await fetch(`${keyed.url}/events?${query}`, {
        signal: controller.signal,
        headers: { 'x-request-id': `redact-${index}` },
      });
      controller.abort();
    }
    const logFile = path.join(keyed.dataDir, 'logs', 'bridge.log');
    const log = await eventually(() => {
      const text = readFileSync(logFile, 'utf8');
      return queries.every((_query, index) => text.includes(`redact-${index}`)) ? text : '';
    });
    expect(log).not.toContain(TEST_API_KEY);
    expect(log).toContain('%6bey=[redacted]');
  });

  it('writes the log file with mode 0600 even into a folder made by someone else', () => {
    const logFile = path.join(keyed.dataDir, 'logs', 'bridge.log');
    expect(statSync(logFile).mode & 0o777).toBe(0o600);
  });
});

describe('7. malformed requests are a clear 4xx, before any work', () => {
  it('answers 400 for a malformed %-escape in the path', async () => {
    const response = await keyed.call('GET', '/streamhost/status/%ff');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toContain('%ff');
  });

  it('answers 415 for a Content-Encoding the bridge does not decode', async () => {
    const response = await keyed.call('POST', '/api/recorder/filename', {
      rawBody: '{"filename":"x"}',
      headers: { 'content-encoding': 'compress' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(response.body.error).toContain('compress');
  });

  it('answers 400 for a body that does not decode as its Content-Encoding says', async () => {
    const response = await keyed.call('POST', '/api/recorder/filename', {
      rawBody: '{"filename":"x"}',
      headers: { 'content-encoding': 'gzip' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toMatch(/^body: /);
  });

  it('answers 400 for JSON nested deeper than 64 levels, before the delivery is logged', async () => {
    const before = await keyed.call('GET', '/api/activity?type=webhook.received&limit=1');
    for (const depth of [65, 20_000]) {
      const nested = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      const response = await keyed.call('POST', `/webhooks/guest-created?key=${TEST_API_KEY}`, {
        key: null,
        rawBody: `{"id":"deep-${depth}","extra":${nested}}`,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(response.body.error).toContain('64 levels');
    }
    const after = await keyed.call('GET', '/api/activity?type=webhook.received&limit=1');
    expect(after.body.data).toEqual(before.body.data);
    // 64 levels in all is fine.
    const atLimit = '['.repeat(63) + '{"id":"deep-ok"}' + ']'.repeat(63);
    const fine = await keyed.call('POST', '/api/recorder/filename', { rawBody: atLimit });
    expect(fine.status).toBe(400);
    expect(fine.body.error).not.toContain('64 levels');
  });
});

describe('12. a known path with a wrong method', () => {
  it('answers 405 with an Allow header naming the methods the path has', async () => {
    const health = await keyed.call('POST', '/health', { body: {} });
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET');
    expect(health.body).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
    expect(health.body.error).toContain('POST /health');

    const filename = await keyed.call('DELETE', '/api/recorder/filename');
    expect(filename.status).toBe(405);
    expect(filename.headers.get('allow')).toBe('GET, POST');

    const withParam = await keyed.call('PUT', '/streamhost/status/b-1', { body: {} });
    expect(withParam.status).toBe(405);
    expect((await keyed.call('GET', '/api/nothing-here')).status).toBe(404);
  });
});
