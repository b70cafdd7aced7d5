import type { Alarm } from '../../../shared/api/health.js';

/** Where an alarm is dealt with, and what its notification says first. */
export const alarmPage: Record<Alarm['kind'], { path: string; title: string }> = {
  job: { path: '/activity', title: 'Work is overdue' },
  publish: { path: '/broadcasts', title: 'A publish is overdue' },
  post: { path: '/posts', title: 'A post is unconfirmed' },
  collection: { path: '/analytics', title: 'Analytics collection is overdue' },
};

/** Alarms not raised before in this window: each is notified once, however often /health is read. */
export function newAlarms(alarms: readonly Alarm[], raised: ReadonlySet<string>): Alarm[] {
  return alarms.filter((alarm) => !raised.has(alarm.id));
}

/**
 * How a new alarm reaches the operator (DESIGN §6.9): a browser notification where the page is a
 * secure context (the desktop window, localhost) and the operator allowed them; otherwise an
 * in-page alert with a sound, so an alarm is never silent.
 */
export function alarmChannel(page: {
  secureContext: boolean;
  permission: 'default' | 'granted' | 'denied' | 'unsupported';
  notifyChosen: boolean;
}): 'notification' | 'in-page' {
  return page.secureContext && page.permission === 'granted' && page.notifyChosen
    ? 'notification'
    : 'in-page';
}
