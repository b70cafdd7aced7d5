import { calendarDate } from '../../../shared/api/contract.js';

const DAY_MS = 86_400_000;

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** `day` moved by `days` (negative: back), as `YYYY-MM-DD`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export type DateRange = { ok: true; start?: string; end?: string } | { ok: false; message: string };

/**
 * `startDate`/`endDate` of an analytics query (DESIGN §6.5): each a real calendar date
 * (2026-02-30 is refused) from 2000-01-01 to 5 years ahead, inclusive, and the start not after the end.
 */
export function parseDateRange(query: {
  startDate?: string | undefined;
  endDate?: string | undefined;
}): DateRange {
  for (const field of ['startDate', 'endDate'] as const) {
    const value = query[field];
    if (value === undefined) continue;
    const checked = calendarDate.safeParse(value);
    if (!checked.success) {
      return {
        ok: false,
        message: `${field}: ${checked.error.issues[0]?.message ?? `"${value}" is not a date`}`,
      };
    }
  }
  const { startDate: start, endDate: end } = query;
  if (start !== undefined && end !== undefined && start > end) {
    return { ok: false, message: `startDate ${start} is after endDate ${end}` };
  }
  return { ok: true, ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) };
}
