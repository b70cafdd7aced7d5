import { describe, expect, it } from 'vitest';
import { judgeLateness, utcMinute } from '../../../main/areas/posting/late-posts.js';

const now = new Date('2026-12-01T09:40:00.000Z');
const judge = (scheduledAt: string, trigger: 'webhook' | 'catch-up' | 'retry' = 'catch-up', attempt = 1) =>
  judgeLateness({ scheduledAt, now, graceMs: 15 * 60_000, trigger, attempt });

describe('late posts (DESIGN §6.9)', () => {
  it('on time, late within the grace, too late', () => {
    expect(judge('2026-12-01T10:00:00.000Z')).toEqual({ kind: 'on-time' });
    expect(judge('2026-12-01T09:35:00.000Z')).toEqual({ kind: 'late', minutesLate: 5 });
    expect(judge('2026-12-01T09:25:00.000Z')).toEqual({ kind: 'late', minutesLate: 15 });
    expect(judge('2026-12-01T09:00:00.000Z').kind).toBe('too-late');
  });

  it('words the reason by its cause, with the time in UTC', () => {
    const catchUp = judge('2026-12-01T09:00:00.000Z');
    expect(catchUp.kind === 'too-late' && catchUp.message).toMatch(
      /^not posted: 40 min past its time \(2026-12-01 09:00 UTC\) when the bridge caught up with the CRM after being away/,
    );
    const retry = judge('2026-12-01T09:00:00.000Z', 'retry', 6);
    expect(retry.kind === 'too-late' && retry.message).toMatch(/at try 6: the provider kept failing/);
    expect(utcMinute(null)).toBe('no time set');
  });
});
