import { describe, expect, it } from 'vitest';
import { reviewPost } from '../../../shared/post-rules.js';
import { MAX_CLIP_TIME_S, clipTimeIssues, dateBoundIssue, latestDate } from '../../../shared/time-bounds.js';

const now = new Date('2026-03-10T12:00:00.000Z');

describe('dateBoundIssue', () => {
  it('accepts 2000-01-01 itself and anything up to 5 calendar years after now', () => {
    expect(dateBoundIssue('scheduledAt', '2000-01-01T00:00:00Z', now)).toBeNull();
    expect(dateBoundIssue('scheduledAt', '2026-03-10T12:00:00Z', now)).toBeNull();
    expect(dateBoundIssue('scheduledAt', '2031-03-10T12:00:00.000Z', now)).toBeNull();
  });

  it('refuses a date before 2000, naming the field and the value as given', () => {
    expect(dateBoundIssue('scheduleDate', '0026-05-01T10:00:00Z', now)).toEqual({
      field: 'scheduleDate',
      rule: 'earliest-date',
      problem: '0026-05-01T10:00:00Z is before 2000-01-01',
      message: 'scheduleDate: 0026-05-01T10:00:00Z is before 2000-01-01',
    });
    expect(dateBoundIssue('scheduledAt', '1999-12-31T23:59:59.999Z', now)?.rule).toBe('earliest-date');
    // An offset counts: this is 1999-12-31T23:00Z.
    expect(dateBoundIssue('scheduledAt', '2000-01-01T00:00:00+01:00', now)?.rule).toBe('earliest-date');
  });

  it('refuses a date more than 5 years after now, relative to the clock it is given', () => {
    expect(dateBoundIssue('scheduledAt', '2031-03-10T12:00:00.001Z', now)).toEqual({
      field: 'scheduledAt',
      rule: 'latest-date',
      problem: '2031-03-10T12:00:00.001Z is more than 5 years ahead (latest 2031-03-10T12:00:00.000Z)',
      message:
        'scheduledAt: 2031-03-10T12:00:00.001Z is more than 5 years ahead (latest 2031-03-10T12:00:00.000Z)',
    });
    expect(
      dateBoundIssue('scheduledAt', '2031-03-10T12:00:00.001Z', new Date('2027-01-01T00:00:00Z')),
    ).toBeNull();
  });

  it('counts calendar years: from 29 February the latest is 1 March five years on', () => {
    expect(latestDate(new Date('2028-02-29T08:00:00Z')).toISOString()).toBe('2033-03-01T08:00:00.000Z');
  });

  it('leaves a value that is not a date to the format rule', () => {
    expect(dateBoundIssue('scheduledAt', 'tomorrow', now)).toBeNull();
  });
});

describe('clipTimeIssues', () => {
  it('accepts 0 ≤ startTime < endTime ≤ 48 h', () => {
    expect(clipTimeIssues(0, 15)).toEqual([]);
    expect(clipTimeIssues(10.4, 41.2)).toEqual([]);
    expect(clipTimeIssues(MAX_CLIP_TIME_S - 30, MAX_CLIP_TIME_S)).toEqual([]);
  });

  it('names the field and the bound it breaks', () => {
    expect(clipTimeIssues(10, 1e308)).toEqual([
      {
        field: 'endTime',
        rule: 'clip-time-max',
        problem: '1e+308 s is past 172800 s (48 h), the longest recording a clip is cut from',
        message: 'endTime: 1e+308 s is past 172800 s (48 h), the longest recording a clip is cut from',
      },
    ]);
    expect(clipTimeIssues(-1, 20).map((i) => i.message)).toEqual(['startTime: must be 0 or more']);
    expect(clipTimeIssues(200_000, 200_030).map((i) => `${i.field} ${i.rule}`)).toEqual([
      'startTime clip-time-max',
      'endTime clip-time-max',
    ]);
  });

  it('refuses an end at or before the start', () => {
    expect(clipTimeIssues(30, 30).map((i) => i.message)).toEqual(['endTime: must be after startTime']);
    expect(clipTimeIssues(20, 5).map((i) => i.message)).toEqual(['endTime: must be after startTime']);
  });

  it('refuses a time that is not a number of seconds (NaN)', () => {
    expect(clipTimeIssues(Number.NaN, 20).map((i) => i.rule)).toEqual(['clip-time-min', 'clip-time-order']);
  });
});

describe('the posting rules use the same bounds', () => {
  it('a scheduleDate before 2000 or more than 5 years ahead is INVALID_DATE with the bound, not "in the past"', () => {
    const ancient = reviewPost(
      { post: 'a', platforms: ['socialnet'], scheduleDate: '0026-05-01T10:00:00Z' },
      { now },
    );
    expect(ancient.errors).toEqual([
      {
        field: 'scheduleDate',
        rule: 'earliest-date',
        message: 'scheduleDate: 0026-05-01T10:00:00Z is before 2000-01-01',
        code: 'INVALID_DATE',
      },
    ]);
    const far = reviewPost(
      { post: 'a', platforms: ['socialnet'], scheduleDate: '2032-01-01T00:00:00Z' },
      { now },
    );
    expect(far.errors).toMatchObject([{ field: 'scheduleDate', rule: 'latest-date', code: 'INVALID_DATE' }]);
    expect(far.warnings).toEqual([]);
  });
});
