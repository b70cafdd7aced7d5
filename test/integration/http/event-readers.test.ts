import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { openRaw, requestHead, type RawConnection } from '../../support/raw-http.js';

/**
 * Issue #25.4 (DESIGN §4): /events takes at most 32 readers per client address and 256 in all
 * (lowered here to 40 to need fewer sockets); past them 429 with Retry-After, and a reader that
 * leaves frees its place. Readers connect from loopback aliases (127.0.0.2…), as remote clients.
 */

const IN_ALL = 40;
let bridge: TestBridge;
const open: RawConnection[] = [];

beforeAll(async () => {
  bridge = await startTestBridge({}, { areas: ['health'], tuning: { http: { maxEventReaders: IN_ALL } } });
});
afterEach(() => {
  for (const reader of open.splice(0)) reader.socket.destroy();
});
afterAll(() => bridge?.close());

async function reader(from: string) {
  const connection = await openRaw(bridge.url, { localAddress: from });
  open.push(connection);
  connection.socket.write(requestHead('GET', `/events?key=${TEST_API_KEY}`));
  return { connection, head: await connection.responseHead() };
}

describe('/events readers are bounded (issue #25.4)', () => {
  it('takes 32 readers from one address, answers the 33rd 429 with Retry-After, and takes one from another address', async () => {
    for (let i = 0; i < 32; i++) expect((await reader('127.0.0.2')).head.status).toBe(200);
    const over = await reader('127.0.0.2');
    expect(over.head.status).toBe(429);
    expect(over.head.headers['retry-after']).toMatch(/^\d+$/);
    // The refusal's body, on a connection kept for a next request (it waited for the keep-alive to end).
    await eventually(() => over.connection.received().includes('"code":"RATE_LIMIT"'));
    expect(over.connection.received()).toContain('32 /events readers');
    expect((await reader('127.0.0.3')).head.status).toBe(200);
  });

  it('takes a reader again once one from the address has left', async () => {
    const first = await reader('127.0.0.2');
    for (let i = 1; i < 32; i++) await reader('127.0.0.2');
    expect((await reader('127.0.0.2')).head.status).toBe(429);
    first.connection.socket.destroy();
    await eventually(async () => {
      const again = await reader('127.0.0.2');
      return again.head.status === 200;
    });
  });

  it('takes at most the cap in all, whatever the addresses', async () => {
    const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
    for (let i = 0; i < IN_ALL; i++) expect((await reader(addresses[i % 4]!)).head.status).toBe(200);
    const over = await reader('127.0.0.6');
    expect(over.head.status).toBe(429);
    expect(over.head.headers['retry-after']).toMatch(/^\d+$/);
  });
});
