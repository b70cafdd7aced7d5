import { useEffect, useState } from 'react';

/** "3 d 4 h", "2 h 5 min", "45 s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${s % 60} s`;
  return `${s} s`;
}

/*
 * Times for people: the one place the dashboard turns an instant into text. The operator reads
 * local time (their browser's time zone); where an instant is shared with other people or
 * systems (a post's or a broadcast's time, a failure, a collection run) UTC stands beside it.
 */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const localShort = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const hourMinute = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const pad = (n: number) => String(n).padStart(2, '0');

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Local date and time ("Nov 25, 2026, 5:00 PM"), or the raw text when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = parse(iso);
  return date ? dateTime.format(date) : iso;
}

/** Local time of day with seconds. */
export function formatClock(iso: string): string {
  const date = parse(iso);
  return date ? timeOnly.format(date) : iso;
}

/** Local weekday, day and time ("Wed, Nov 25, 05:00 PM"): fits a table cell. */
export function formatLocal(iso: string): string {
  const date = parse(iso);
  return date ? localShort.format(date) : iso;
}

/** Local hour and minute ("05:00 PM"). */
export function formatTime(iso: string): string {
  const date = parse(iso);
  return date ? hourMinute.format(date) : iso;
}

/** `2026-11-25 22:00 UTC`: the same text in every locale, for comparing with the CRM or a colleague. */
export function formatUtc(iso: string): string {
  const date = parse(iso);
  if (!date) return iso;
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** The operator's IANA time zone, e.g. `America/New_York`. */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

/** ISO instants inside a message ("… at 2026-11-25T22:00:00.000Z") as local time with UTC beside. */
export function localizeInstants(text: string): string {
  return text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g, (iso) =>
    parse(iso) ? `${formatLocal(iso)} (${formatUtc(iso)})` : iso,
  );
}

/** "just now", "5 min ago", "in 2 h": relative to `now` (epoch ms). */
export function formatRelative(iso: string, now: number): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return iso;
  const deltaS = Math.round((at - now) / 1000);
  const abs = Math.abs(deltaS);
  if (abs < 10) return 'just now';
  const text =
    abs < 60
      ? `${abs} s`
      : abs < 3_600
        ? `${Math.floor(abs / 60)} min`
        : abs < 86_400
          ? `${Math.floor(abs / 3_600)} h`
          : `${Math.floor(abs / 86_400)} d`;
  return deltaS < 0 ? `${text} ago` : `in ${text}`;
}

/** The current time, refreshed every `intervalMs`: for relative times and countdowns. */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
