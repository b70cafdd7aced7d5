import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../main/peers/http-client.js';
import { PeerError } from '../../../main/peers/peer-error.js';
import { RateLimiter } from '../../../main/peers/rate-limiter.js';
import { backoffDelayMs, peerRetryBackoff } from '../../../main/kernel/jobs/backoff.js';

describe('backoffDelayMs', () => {
  it('starts at 2 s and doubles up to 10 min (no jitter at the midpoint)', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, peerRetryBackoff, mid))).toEqual([
      2000, 4000, 8000, 16000, 32000,
    ]);
    expect(backoffDelayMs(20, peerRetryBackoff, mid)).toBe(600_000);
  });
  it('stays within ±10 % jitter', () => {
    expect(backoffDelayMs(1, peerRetryBackoff, () => 0)).toBe(1800);
    expect(backoffDelayMs(1, peerRetryBackoff, () => 1)).toBe(2200);
  });
});

describe('PeerError.retryable', () => {
  it('retries network errors, timeouts, 429 and 5xx; never other 4xx or garbage', () => {
    const http = (status: number) => new PeerError('p', 'http', 'x', { status });
    expect(new PeerError('p', 'network', 'x').retryable).toBe(true);
    expect(new PeerError('p', 'timeout', 'x').retryable).toBe(true);
    expect(http(429).retryable).toBe(true);
    expect(http(503).retryable).toBe(true);
    expect(http(500).retryable).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422]) expect(http(status).retryable).toBe(false);
    expect(new PeerError('p', 'invalid-body', 'x').retryable).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(new Date(61_000).toUTCString(), 1_000)).toBe(60);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('RateLimiter', () => {
  it('lets a burst through, then spaces requests at the rate', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 2, () => now);
    expect(limiter.tryTake()).toBe(0);
    expect(limiter.tryTake()).toBe(0);
    expect(limiter.tryTake()).toBe(500);
    now = 500;
    expect(limiter.tryTake()).toBe(0);
  });
  it('holds everyone back after a 429 for the Retry-After', () => {
    let now = 0;
    const limiter = new RateLimiter(100, 100, () => now);
    limiter.pauseFor(3000);
    expect(limiter.tryTake()).toBe(3000);
    now = 3000;
    expect(limiter.tryTake()).toBe(0);
  });
});
