import { describe, expect, it } from 'vitest';
import { addDays, parseDateRange, utcDay } from '../../../main/areas/analytics/dates.js';

describe('analytics dates (DESIGN §6.5)', () => {
  it('accepts real calendar dates, inclusive range, either end optional', () => {
    expect(parseDateRange({})).toEqual({ ok: true });
    expect(parseDateRange({ startDate: '2024-02-29' })).toEqual({ ok: true, start: '2024-02-29' });
    expect(parseDateRange({ startDate: '2026-03-01', endDate: '2026-03-01' })).toEqual({
      ok: true,
      start: '2026-03-01',
      end: '2026-03-01',
    });
  });

  it.each([
    [{ startDate: '2026-02-30' }, 'startDate: "2026-02-30" is not a real calendar date'],
    [{ endDate: '2025-02-29' }, 'endDate: "2025-02-29" is not a real calendar date'],
    [{ startDate: '2026-13-01' }, 'startDate: "2026-13-01" is not a real calendar date'],
    [{ startDate: '26-01-01' }, 'startDate: "26-01-01" must be YYYY-MM-DD'],
    [{ endDate: '2026-1-1' }, 'endDate: "2026-1-1" must be YYYY-MM-DD'],
    [{ startDate: '' }, 'startDate: "" must be YYYY-MM-DD'],
    [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'startDate 2026-03-02 is after endDate 2026-03-01'],
  ])('refuses %j', (query, message) => {
    expect(parseDateRange(query)).toEqual({ ok: false, message });
  });

  it('counts UTC days', () => {
    expect(utcDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(utcDay(new Date('2026-03-02T00:30:00+01:00'))).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-10', -29)).toBe('2026-02-09');
  });
});
