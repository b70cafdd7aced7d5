import { describe, expect, it } from 'vitest';
import { AppError } from '../../../main/kernel/app-error.js';
import { PeerError } from '../../../main/peers/peer-error.js';
import { describePeerFailure, peerFailureIn } from '../../../main/peers/peer-failure.js';
import { RateLimiter } from '../../../main/peers/rate-limiter.js';

describe('describePeerFailure: why a peer failed, told apart (issue #30)', () => {
  const http = (status: number, retryAfterS?: number) =>
    new PeerError('crm', 'http', `crm GET /X: HTTP ${status}`, {
      status,
      ...(retryAfterS === undefined ? {} : { retryAfterS }),
    });

  it.each([
    [
      new PeerError('crm', 'network', 'crm GET /X: connection refused'),
      { name: 'crm', cause: 'unreachable' },
    ],
    [
      new PeerError('gateway', 'timeout', 'gateway POST /X: timed out'),
      { name: 'gateway', cause: 'no-answer' },
    ],
    [http(429, 60), { name: 'crm', cause: 'throttled', status: 429, retryAfterS: 60 }],
    [http(429), { name: 'crm', cause: 'throttled', status: 429 }],
    [http(401), { name: 'crm', cause: 'refused-key', status: 401 }],
    [http(403), { name: 'crm', cause: 'refused-key', status: 403 }],
    [http(503), { name: 'crm', cause: 'failing', status: 503 }],
    [http(400), { name: 'crm', cause: 'refused', status: 400 }],
    // A redirect is not followed (issue #35.3): the address points elsewhere, not an answer about the request.
    [http(302), { name: 'crm', cause: 'unreadable', status: 302 }],
    [http(308), { name: 'crm', cause: 'unreadable', status: 308 }],
    [
      new PeerError('automation', 'invalid-body', 'automation POST /webhook/x: unexpected answer', {
        status: 200,
      }),
      { name: 'automation', cause: 'unreadable', status: 200 },
    ],
  ])('%s', (error, expected) => {
    expect(describePeerFailure(error)).toEqual(expected);
  });

  it('a peer the envelope does not name is left out', () => {
    expect(describePeerFailure(new PeerError('elsewhere', 'network', 'x'))).toBeUndefined();
  });

  it('finds the PeerError through wrapping errors, and nothing where there is none', () => {
    const inner = new PeerError('postsvc', 'network', 'postsvc POST /post: connection refused');
    const wrapped = AppError.peer(
      'PLATFORM_ERROR',
      'posting provider: …',
      undefined,
      new Error('x', { cause: inner }),
    );
    expect(peerFailureIn(wrapped)).toEqual({ name: 'postsvc', cause: 'unreachable' });
    expect(peerFailureIn(AppError.validation('post: too long'))).toBeUndefined();
    expect(peerFailureIn('not an error')).toBeUndefined();
  });
});

describe('RateLimiter.pausedForMs', () => {
  it('is the time left of a Retry-After pause, 0 once it is over', () => {
    let now = 1_000;
    const limiter = new RateLimiter(10, 10, () => now);
    expect(limiter.pausedForMs()).toBe(0);
    limiter.pauseFor(60_000);
    now += 15_000;
    expect(limiter.pausedForMs()).toBe(45_000);
    now += 50_000;
    expect(limiter.pausedForMs()).toBe(0);
  });
});
