import { describe, expect, it } from 'vitest';
import { alarmChannel, newAlarms } from '../../../renderer/src/alarms/alarm-words.js';
import { minutesAgo } from '../../../main/areas/health/alarms.js';

describe('alarms (DESIGN §6.9: nothing overdue is silent)', () => {
  it('notifies through the browser only in a secure context with permission and the operator’s choice; otherwise on the page', () => {
    expect(alarmChannel({ secureContext: true, permission: 'granted', notifyChosen: true })).toBe(
      'notification',
    );
    expect(alarmChannel({ secureContext: false, permission: 'granted', notifyChosen: true })).toBe('in-page');
    expect(alarmChannel({ secureContext: true, permission: 'default', notifyChosen: true })).toBe('in-page');
    expect(alarmChannel({ secureContext: true, permission: 'granted', notifyChosen: false })).toBe('in-page');
    expect(alarmChannel({ secureContext: true, permission: 'unsupported', notifyChosen: false })).toBe(
      'in-page',
    );
  });

  it('raises each alarm once however often /health is read', () => {
    const alarm = (id: string) => ({ id, kind: 'job' as const, message: id, since: '2026-01-01T00:00:00Z' });
    const raised = new Set(['job:1']);
    expect(newAlarms([alarm('job:1'), alarm('job:2')], raised).map((a) => a.id)).toEqual(['job:2']);
  });

  it('says how long ago in minutes, then hours', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(minutesAgo('2026-01-01T11:57:00Z', now)).toBe('3 min ago');
    expect(minutesAgo('2026-01-01T09:50:00Z', now)).toBe('2 h 10 min ago');
    expect(minutesAgo('2026-01-01T10:00:00Z', now)).toBe('2 h ago');
  });
});
