import { describe, expect, it } from 'vitest';
import { AppError } from '../../../main/kernel/app-error.js';
import {
  PermanentJobError,
  RetryLaterError,
  retryAfterMsOf,
  retryClassOf,
} from '../../../main/kernel/jobs/retry-class.js';
import { backoffDelayMs, peerRetryBackoff } from '../../../main/kernel/jobs/backoff.js';
import { MAX_JOB_ATTEMPTS } from '../../../main/kernel/jobs/queue.js';
import { PeerError } from '../../../main/peers/peer-error.js';

const http = (status: number, retryAfterS?: number) =>
  new PeerError('crm', 'http', `HTTP ${status}`, { status, ...(retryAfterS ? { retryAfterS } : {}) });

describe('retry classes (DESIGN §6.2)', () => {
  it('408, 429, 500 and 502–504 and network failures are transient; any other 4xx is permanent', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(retryClassOf(http(status))).toBe('transient');
    for (const status of [400, 401, 403, 404, 409, 422]) expect(retryClassOf(http(status))).toBe('permanent');
    expect(retryClassOf(new PeerError('gateway', 'network', 'ECONNREFUSED'))).toBe('transient');
    expect(retryClassOf(new PeerError('gateway', 'timeout', 'no answer', { outcomeUnknown: true }))).toBe(
      'transient',
    );
  });

  it('sees the peer status through an AppError cause; rule errors and explicit classes are respected', () => {
    expect(retryClassOf(AppError.peer('CRM_ERROR', 'crm said no', undefined, http(400)))).toBe('permanent');
    expect(retryClassOf(AppError.peer('CRM_ERROR', 'crm down', undefined, http(503)))).toBe('transient');
    expect(retryClassOf(AppError.validation('post: too long'))).toBe('permanent');
    expect(retryClassOf(new PermanentJobError('no CRM'))).toBe('permanent');
    expect(retryClassOf(new RetryLaterError('wait', 5_000))).toBe('transient');
    expect(retryClassOf(new Error('something else'))).toBe('transient');
  });

  it("takes the peer's Retry-After", () => {
    expect(retryAfterMsOf(http(429, 7))).toBe(7_000);
    expect(retryAfterMsOf(AppError.peer('CRM_ERROR', 'x', undefined, http(429, 3)))).toBe(3_000);
    expect(retryAfterMsOf(http(503))).toBeUndefined();
  });

  it('backs off from 2 s doubling, capped at 10 min, for at most 10 attempts', () => {
    const delays = Array.from({ length: MAX_JOB_ATTEMPTS - 1 }, (_, i) =>
      backoffDelayMs(i + 1, peerRetryBackoff, () => 0.5),
    );
    expect(MAX_JOB_ATTEMPTS).toBe(10);
    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000]);
    expect(backoffDelayMs(12, peerRetryBackoff, () => 0.5)).toBe(600_000);
  });
});
