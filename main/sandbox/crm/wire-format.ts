/** EspoCRM's wire formats: datetimes `YYYY-MM-DD HH:mm:ss` in UTC (no T, no Z), dates `YYYY-MM-DD`. */

const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function toCrmDatetime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function isCrmDatetime(value: string): boolean {
  const m = DATETIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return isRealDate(y, mo, d) && h < 24 && mi < 60 && s < 60;
}

export function isCrmDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [, y, mo, d] = m.map(Number) as [number, number, number, number];
  return isRealDate(y, mo, d);
}

function isRealDate(year: number, month: number, day: number): boolean {
  // Not Date.UTC: it reads years 0-99 as 1900-1999, so 0026-05-01 would not round-trip.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** 17 characters [a-z0-9] like EspoCRM ids: a time part (so runs never repeat ids) and a random part. */
export function crmId(now: Date, random: (length: number) => string): string {
  return now.getTime().toString(36).padStart(9, '0').slice(-9) + random(8);
}
