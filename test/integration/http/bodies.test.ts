import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEspoBody } from '../../../main/http/espo-signature.js';
import { phpJsonEncode } from '../../../main/sandbox/index.js';
import { startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { openRaw, requestHead, type RawConnection } from '../../support/raw-http.js';

/**
 * Issue #25.2 and #25.3 (DESIGN §4): a body declared larger than the route's limit is refused
 * before any byte of it is sent; a chunked one stops at the limit; bytes that are not UTF-8 are
 * 400 INVALID_ENCODING naming the field, never replaced by U+FFFD. On the API and on webhooks.
 */

const SECRET = 'bodies-secret';
let keyed: TestBridge;
let signed: TestBridge;

beforeAll(async () => {
  keyed = await startTestBridge({}, { areas: ['health', 'webhooks', 'recorder', 'clips'] });
  signed = await startTestBridge({ CRM_WEBHOOK_SECRETS: SECRET }, { areas: ['health', 'webhooks'] });
});
afterAll(async () => {
  await keyed?.close();
  await signed?.close();
});

/** Fails with `what` if `promise` has not settled within `ms` (an answer that never comes). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, never]).finally(() => clearTimeout(timer));
}

/** The JSON envelope after the head of the first response (Content-Length bodies only). */
function bodyOf(connection: RawConnection): unknown {
  const text = connection.received();
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

async function headOnly(bridge: TestBridge, path: string, headers: Record<string, string | number>) {
  const connection = await openRaw(bridge.url);
  connection.socket.write(requestHead('POST', path, { 'content-type': 'application/json', ...headers }));
  return connection;
}

describe('2. a declared length over the limit: 413 before any body byte', () => {
  it('on the API (1 MB): the head alone is answered 413, and the connection closed', async () => {
    const connection = await headOnly(keyed, '/api/recorder/filename', {
      authorization: `Bearer ${TEST_API_KEY}`,
      'content-length': 2_000_000,
    });
    const head = await within(connection.responseHead(), 5_000, 'answer to the head alone');
    expect(head.status).toBe(413);
    await within(connection.closed(), 5_000, 'close');
    expect(bodyOf(connection)).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect((bodyOf(connection) as { error: string }).error).toContain('1048576');
  });

  it('on /clips/analyze the limit is 5 MB: 6 MB declared is 413 at once', async () => {
    const connection = await headOnly(keyed, '/clips/analyze', {
      authorization: `Bearer ${TEST_API_KEY}`,
      'content-length': 6_000_000,
    });
    expect((await within(connection.responseHead(), 5_000, 'answer')).status).toBe(413);
    expect((bodyOf(connection) as { error: string }).error).toContain('5242880');
  });

  it('on a webhook with a well-formed but forged signature, 2 GB declared: 413 before the signature is checked', async () => {
    const forged = signEspoBody('{"not":"the body"}', 'not-the-secret', 'hook-1');
    const connection = await headOnly(signed, '/webhooks/social-created', {
      signature: forged,
      'content-length': 2_000_000_000,
    });
    const head = await within(connection.responseHead(), 5_000, 'answer to the head alone');
    expect(head.status).toBe(413);
    await within(connection.closed(), 5_000, 'close');
  });

  it('a chunked body stops at the limit: 413 while the client is still sending, the rest never read', async () => {
    const connection = await headOnly(keyed, '/api/recorder/filename', {
      authorization: `Bearer ${TEST_API_KEY}`,
      'transfer-encoding': 'chunked',
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20); // JSON whitespace
    let sent = 0;
    const answered = connection.responseHead();
    // 1.5 MB in chunks, then the request stays open: only a reader that stops at the limit answers.
    while (sent < 1_536 * 1024 && !connection.isClosed()) {
      connection.socket.write(`${chunk.length.toString(16)}\r\n`);
      connection.socket.write(chunk);
      connection.socket.write('\r\n');
      sent += chunk.length;
    }
    expect((await within(answered, 5_000, 'answer before the body ends')).status).toBe(413);
    await within(connection.closed(), 5_000, 'close');
  });

  it('on a webhook the limit is 16 MB: 16 MB + 1 declared is 413 at once, naming it', async () => {
    const forged = signEspoBody('{"not":"the body"}', 'not-the-secret', 'hook-1');
    const connection = await headOnly(signed, '/webhooks/content-updated', {
      signature: forged,
      'content-length': 16 * 1024 * 1024 + 1,
    });
    expect((await within(connection.responseHead(), 5_000, 'answer')).status).toBe(413);
    expect((bodyOf(connection) as { error: string }).error).toContain('16777216');
  });

  it('issue #35.4: 50 ContentProduction items with full transcripts (PHP writes non-ASCII as \\uXXXX) exceed 1 MB and are accepted', async () => {
    // Words with accents: PHP's json_encode turns each "é" into six bytes.
    const transcript = 'Première émission, déjà très suivie — on en reparle à la rentrée. '.repeat(600);
    const items = Array.from({ length: 50 }, (_, i) => ({
      id: `cp${String(i).padStart(15, '0')}`,
      name: `Épisode ${i + 1}`,
      transcript,
    }));
    const raw = phpJsonEncode(items);
    expect(raw.length).toBeGreaterThan(2 * 1024 * 1024);
    const response = await postBytes(signed, '/webhooks/content-updated', Buffer.from(raw), {
      signature: signEspoBody(raw, SECRET, 'hook-content-updated'),
    });
    expect([200, 202]).toContain(response.status);
    expect(response.body).toMatchObject({ success: true });
  });

  it('a body under the limit is still read: 4 MB on /clips/analyze is not 413', async () => {
    const response = await keyed.call('POST', '/clips/analyze', {
      body: { contentProductionId: 'x', transcript: 'word '.repeat(800_000) },
    });
    expect(response.status).not.toBe(413);
  });
});

/** `{"filename":"ab<0xFF>c"}` and the like: JSON text with raw bytes spliced in. */
function withBytes(before: string, bytes: number[], after: string): Buffer {
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
}

async function postBytes(
  bridge: TestBridge,
  path: string,
  body: Buffer,
  headers: Record<string, string> = { authorization: `Bearer ${TEST_API_KEY}` },
) {
  const response = await fetch(bridge.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('3. bytes that are not UTF-8: 400 INVALID_ENCODING naming the field', () => {
  it.each([
    ['a lone 0xFF', [0xff]],
    ['a truncated two-byte sequence', [0xc3]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['a UTF-16 surrogate encoded in UTF-8 (CESU)', [0xed, 0xa0, 0x80]],
    ['Latin-1 "é"', [0xe9]],
  ])('on the API: %s in the filename', async (_what, bytes) => {
    const response = await postBytes(
      keyed,
      '/api/recorder/filename',
      withBytes('{"filename":"take', bytes, '"}'),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'INVALID_ENCODING' });
    expect(response.body.error).toMatch(/^body\.filename: /);
    // Nothing was stored in its place with U+FFFD.
    const now = await keyed.call('GET', '/api/recorder/filename');
    expect(String(now.body.filename ?? '')).not.toContain('\ufffd');
  });

  it('names a nested field by its path, and says "body" when the bytes are outside any string', async () => {
    const nested = await postBytes(
      keyed,
      `/webhooks/guest-created?key=${TEST_API_KEY}`,
      withBytes('[{"id":"g1","contact":{"name":"Ann', [0xff], '"}}]'),
      {},
    );
    expect(nested.status).toBe(400);
    expect(nested.body).toMatchObject({ code: 'INVALID_ENCODING' });
    expect(nested.body.error).toMatch(/^body\.0\.contact\.name: /);
    const outside = await postBytes(
      keyed,
      '/api/recorder/filename',
      withBytes('{"filename":"a"', [0xff], '}'),
    );
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ code: 'INVALID_ENCODING' });
    expect(outside.body.error).toMatch(/^body: /);
  });

  it('on a signed webhook: a valid signature over bytes that are not UTF-8 is 400 (EspoCRM drops it: it can never succeed), not stored', async () => {
    const raw = withBytes('[{"id":"sp-enc","name":"Caf', [0xe9], '"}]');
    const response = await postBytes(signed, '/webhooks/social-created', raw, {
      signature: signEspoBody(raw, SECRET, 'hook-1'),
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'INVALID_ENCODING' });
    expect(response.body.error).toMatch(/^body\.0\.name: /);
    const received = await signed.call('GET', '/api/activity?type=webhook.received&limit=5');
    expect(JSON.stringify(received.body.data)).not.toContain('sp-enc');
  });

  it('a forged signature over such bytes is still 401: the signature is checked first', async () => {
    const raw = withBytes('[{"id":"sp-enc2","name":"Caf', [0xe9], '"}]');
    const response = await postBytes(signed, '/webhooks/social-created', raw, {
      signature: signEspoBody(raw, 'not-the-secret', 'hook-1'),
    });
    expect(response.status).toBe(401);
  });

  it('in the query: %FF in a query value is 400 INVALID_ENCODING naming the parameter', async () => {
    const response = await keyed.call('GET', '/api/activity?type=%FFx&limit=5');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'INVALID_ENCODING' });
    expect(response.body.error).toMatch(/^query\.type: /);
  });

  it('valid UTF-8, a real U+FFFD included, is read as sent', async () => {
    const response = await keyed.call('POST', '/api/recorder/filename', {
      body: { filename: 'Café � take' },
    });
    expect(response.status).toBe(200);
    expect(response.body.filename).toBe('Café � take');
  });
});
