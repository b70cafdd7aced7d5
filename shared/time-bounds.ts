/**
 * Dates and times that cannot be meant (issue #11): a broadcast dated year 0026, a post six
 * years out, a clip ending at 1e308 s. The one place these bounds live; the posting rules
 * (shared/post-rules.ts), the broadcast and publishing services and the clip contract
 * (shared/api/clips.ts) all check with the functions below, and the dashboard runs the same
 * code through the posting rules as the operator types.
 */

/**
 * ISO 8601 date-time with `Z` or an offset: a time without a zone means different instants to different people.
 * Published as it is in /openapi.json: ASCII digits spelled `[0-9]` (shared/portable-pattern.ts).
 */
export const ISO_DATE_TIME =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})$/;

/** Nothing the studio schedules is dated before this day (UTC): an earlier year is a typo. */
export const EARLIEST_DATE = '2000-01-01';
const EARLIEST_MS = Date.parse(`${EARLIEST_DATE}T00:00:00Z`);
/** How far ahead a date may be, in calendar years from now. */
export const MAX_YEARS_AHEAD = 5;
/** Clip times are seconds into a recording of at most 48 hours. */
export const MAX_CLIP_TIME_S = 48 * 3600;

export interface BoundIssue {
  field: string;
  rule: 'earliest-date' | 'latest-date' | 'clip-time-min' | 'clip-time-max' | 'clip-time-order';
  /** The rule broken, without the field (for a zod issue, whose path names the field). */
  problem: string;
  /** `field: <problem>`, as the bridge answers it. */
  message: string;
}

function issue(field: string, rule: BoundIssue['rule'], problem: string): BoundIssue {
  return { field, rule, problem, message: `${field}: ${problem}` };
}

/** The latest date accepted: `now` plus 5 calendar years (UTC). */
export function latestDate(now: Date): Date {
  const latest = new Date(now.getTime());
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_YEARS_AHEAD);
  return latest;
}

/**
 * Whether a date-time is one a person can mean: not before 2000-01-01 and at most 5 years
 * after `now` (the caller's clock: the bridge's, or the browser's in the dashboard). `value`
 * is named as given. A value that is not a date is left to the caller's format rule (null).
 */
export function dateBoundIssue(field: string, value: string, now: Date): BoundIssue | null {
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  if (at < EARLIEST_MS) return issue(field, 'earliest-date', `${value} is before ${EARLIEST_DATE}`);
  const latest = latestDate(now);
  if (at > latest.getTime()) {
    return issue(
      field,
      'latest-date',
      `${value} is more than ${MAX_YEARS_AHEAD} years ahead (latest ${latest.toISOString()})`,
    );
  }
  return null;
}

/**
 * The same bounds for a calendar day `YYYY-MM-DD` (UTC): from 2000-01-01 to the day 5 years after
 * `now`. A value that is not a day is left to the caller's format rule (null).
 */
export function dayBoundIssue(field: string, day: string, now: Date): BoundIssue | null {
  const at = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(at)) return null;
  if (at < EARLIEST_MS) return issue(field, 'earliest-date', `${day} is before ${EARLIEST_DATE}`);
  const latestDay = latestDate(now).toISOString().slice(0, 10);
  if (at > Date.parse(`${latestDay}T00:00:00Z`))
    return issue(
      field,
      'latest-date',
      `${day} is more than ${MAX_YEARS_AHEAD} years ahead (latest ${latestDay})`,
    );
  return null;
}

/** Clip times in seconds: 0 ≤ startTime < endTime ≤ 48 h (172,800 s). Every bound broken, in field order. */
export function clipTimeIssues(startTime: number, endTime: number): BoundIssue[] {
  const issues: BoundIssue[] = [];
  const tooLate = (field: string, value: number) =>
    issue(
      field,
      'clip-time-max',
      `${value} s is past ${MAX_CLIP_TIME_S} s (48 h), the longest recording a clip is cut from`,
    );
  if (!(startTime >= 0)) issues.push(issue('startTime', 'clip-time-min', 'must be 0 or more'));
  else if (startTime > MAX_CLIP_TIME_S) issues.push(tooLate('startTime', startTime));
  if (endTime > MAX_CLIP_TIME_S) issues.push(tooLate('endTime', endTime));
  if (!(endTime > startTime)) issues.push(issue('endTime', 'clip-time-order', 'must be after startTime'));
  return issues;
}
