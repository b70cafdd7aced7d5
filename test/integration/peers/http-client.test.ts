import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpClient } from '../../../main/peers/http-client.js';
import { PeerError } from '../../../main/peers/peer-error.js';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/postsvc/index.js';

let peer: SandboxPostsvc;
beforeAll(async () => {
  peer = await startSandboxPostsvc();
});
afterAll(() => peer.stop());

const fast = { attempts: 3, backoff: { baseMs: 20, maxMs: 1_000, jitter: 0 } };
const client = (overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({
    peer: 'postsvc',
    baseUrl: peer.url,
    headers: { Authorization: `Bearer ${peer.apiKey}` },
    timeoutMs: 1_000,
    retry: fast,
    ...overrides,
  });
const user = z.looseObject({ activeSocialAccounts: z.array(z.string()) });

describe('HttpClient against a failing peer', () => {
  it('waits out a 429 Retry-After, then succeeds', async () => {
    peer.faults.injectFault({
      method: 'GET',
      pathPrefix: '/user',
      status: 429,
      headers: { 'Retry-After': '1' },
      times: 1,
    });
    const started = Date.now();
    const body = await client().json({ method: 'GET', path: '/user' }, user);
    expect(body.activeSocialAccounts.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('retries 5xx on a GET, and gives up after the attempts with the status', async () => {
    peer.faults.injectFault({ method: 'GET', pathPrefix: '/user', status: 502, times: 3 });
    const error = (await client()
      .request({ method: 'GET', path: '/user' })
      .catch((e: unknown) => e)) as PeerError;
    expect(error).toBeInstanceOf(PeerError);
    expect(error.status).toBe(502);
    expect(error.retryable).toBe(true);
    expect(peer.faults.activeFaults()).toHaveLength(0);
  });

  it('never retries a 4xx', async () => {
    peer.faults.injectFault({ method: 'GET', pathPrefix: '/user', status: 403, times: 2 });
    await expect(client().request({ method: 'GET', path: '/user' })).rejects.toMatchObject({ status: 403 });
    expect(peer.faults.activeFaults()[0]?.remaining).toBe(1);
    peer.faults.clearFaults();
  });

  it('turns a garbage body into an invalid-body error, not a crash', async () => {
    peer.faults.injectFault({
      method: 'GET',
      pathPrefix: '/user',
      status: 200,
      body: '<html>oops</html>',
      times: 1,
    });
    await expect(client().request({ method: 'GET', path: '/user' })).rejects.toMatchObject({
      kind: 'invalid-body',
    });
    peer.faults.injectFault({
      method: 'GET',
      pathPrefix: '/user',
      status: 200,
      body: { unexpected: true },
      times: 1,
    });
    const error = (await client()
      .json({ method: 'GET', path: '/user' }, user)
      .catch((e: unknown) => e)) as PeerError;
    expect(error.kind).toBe('invalid-body');
    expect(error.message).toContain('activeSocialAccounts');
  });

  it('does not resend a POST that timed out: its outcome is unknown', async () => {
    peer.faults.injectFault({ method: 'POST', pathPrefix: '/post', hang: true, times: 1 });
    const before = peer.callCount('/post', 'POST');
    const error = (await client({ timeoutMs: 300 })
      .request({ method: 'POST', path: '/post', body: { post: 'hello', platforms: ['socialnet'] } })
      .catch((e: unknown) => e)) as PeerError;
    expect(error.kind).toBe('timeout');
    expect(error.details.outcomeUnknown).toBe(true);
    expect(peer.callCount('/post', 'POST')).toBe(before + 1);
    expect(peer.posts().some((p) => p.post === 'hello')).toBe(true);
  });

  it('reports connection refused as a retryable network error, and recovers when the peer is back', async () => {
    const outcomes: boolean[] = [];
    const watched = client({
      retry: { attempts: 1, backoff: fast.backoff },
      onAttempt: (o) => outcomes.push(o.ok),
    });
    await peer.faults.refuseConnections(true);
    const error = (await watched
      .request({ method: 'GET', path: '/user' })
      .catch((e: unknown) => e)) as PeerError;
    expect(error).toMatchObject({ kind: 'network', retryable: true });
    // A kept-alive socket closed by the peer shows as a reset, a new connection as refused.
    expect(error.message).toMatch(/connection (refused|reset)/);
    await peer.faults.refuseConnections(false);
    await expect(watched.request({ method: 'GET', path: '/user' })).resolves.toMatchObject({ status: 200 });
    expect(outcomes).toEqual([false, true]);
  });
});

describe('HttpClient and redirects (issue #35.3: a key goes only to the origin it was saved for)', () => {
  it('does not follow a redirect to another origin: the key never reaches it, the 3xx is the answer', async () => {
    const { createServer } = await import('node:http');
    const seen: (string | undefined)[] = [];
    const other = createServer((request, response) => {
      seen.push(request.headers['x-api-key'] as string | undefined);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const redirector = createServer((request, response) => {
      response.writeHead(302, { location: `${otherUrl}${request.url}` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const error = (await client({
        baseUrl: `http://127.0.0.1:${(redirector.address() as { port: number }).port}`,
        headers: { 'X-Api-Key': 'the-key-saved-for-the-redirector' },
      })
        .request({ method: 'GET', path: '/api/v1/App/user' })
        .catch((e: unknown) => e)) as PeerError;
      expect(error).toBeInstanceOf(PeerError);
      expect(error.status).toBe(302);
      expect(error.message).toContain(`redirects to ${otherUrl}/api/v1/App/user: not followed`);
      expect(seen).toEqual([]);
    } finally {
      redirector.close();
      other.close();
    }
  });
});
