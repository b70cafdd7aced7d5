import { describe, expect, it } from 'vitest';
import { checkPace } from '../../../main/http/body-pace.js';

/** Issue #35.4: an unverified body keeps 32 KiB/s after its first second and is complete within 8 s. */
describe('checkPace', () => {
  const pace = { minBytesPerSecond: 32 * 1024, graceMs: 1_000, deadlineMs: 8_000 };

  it('asks nothing in the first second', () => {
    expect(checkPace(pace, { sinceFirstByteMs: 900, sinceBodyStartMs: 900, received: 0 })).toEqual({
      ok: true,
      checkAgainInMs: 101,
    });
  });

  it('after it, 32 KiB for every second since the first: checks again when that would be missed', () => {
    const verdict = checkPace(pace, {
      sinceFirstByteMs: 1_500,
      sinceBodyStartMs: 1_500,
      received: 32 * 1024,
    });
    // 32 KiB covers up to 2 s after the body began: looked at again just past that.
    expect(verdict).toEqual({ ok: true, checkAgainInMs: 501 });
  });

  it('refuses a body behind that rate, saying what came and what is asked', () => {
    const verdict = checkPace(pace, { sinceFirstByteMs: 2_100, sinceBodyStartMs: 2_000, received: 3 });
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.reason).toContain('3 bytes in 2.0 s');
    expect(verdict.reason).toContain('32768 bytes a second');
  });

  it('refuses a body not complete 8 s after the first byte of its request, at any rate', () => {
    const verdict = checkPace(pace, {
      sinceFirstByteMs: 8_000,
      sinceBodyStartMs: 7_000,
      received: 10_000_000,
    });
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('within 8 s') });
  });

  it('never checks again later than the deadline', () => {
    const verdict = checkPace(pace, {
      sinceFirstByteMs: 7_500,
      sinceBodyStartMs: 7_000,
      received: 10_000_000,
    });
    expect(verdict).toEqual({ ok: true, checkAgainInMs: 500 });
  });
});
