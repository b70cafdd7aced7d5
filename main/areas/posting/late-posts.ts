/**
 * Late posts (DESIGN §6.9): a Scheduled post whose time passed before it ever reached the
 * provider goes out at once when at most the grace late, judged at each provider call (retries
 * included); later than that it is not posted, and the record says why, worded by the cause.
 */

/** What brought the bridge to the record: the cause named when a post is too late. */
export type PostTrigger = 'webhook' | 'catch-up' | 'retry' | 'dashboard';

export type Lateness =
  { kind: 'on-time' } | { kind: 'late'; minutesLate: number } | { kind: 'too-late'; message: string };

/** "2026-12-01 09:00 UTC" */
export function utcMinute(iso: string | null): string {
  if (iso === null || Number.isNaN(Date.parse(iso))) return 'no time set';
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function judgeLateness(input: {
  scheduledAt: string;
  now: Date;
  graceMs: number;
  trigger: PostTrigger;
  attempt: number;
}): Lateness {
  const lateMs = input.now.getTime() - Date.parse(input.scheduledAt);
  if (Number.isNaN(lateMs) || lateMs <= 0) return { kind: 'on-time' };
  const minutesLate = Math.max(1, Math.round(lateMs / 60_000));
  if (lateMs <= input.graceMs) return { kind: 'late', minutesLate };
  return {
    kind: 'too-late',
    message:
      `not posted: ${minutesLate} min past its time (${utcMinute(input.scheduledAt)}) ${causeOf(input.trigger, input.attempt)}; ` +
      `more than ${Math.round(input.graceMs / 60_000)} min late is never sent by itself: post it now or reschedule it`,
  };
}

function causeOf(trigger: PostTrigger, attempt: number): string {
  switch (trigger) {
    case 'catch-up':
      return 'when the bridge caught up with the CRM after being away';
    case 'retry':
      return `at try ${attempt}: the provider kept failing until then`;
    case 'dashboard':
      return 'when it was sent from the dashboard';
    case 'webhook':
      return "when the CRM's webhook reached the bridge";
  }
}
