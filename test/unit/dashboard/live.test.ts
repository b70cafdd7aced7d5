import { describe, expect, it } from 'vitest';
import type {
  ActivityData,
  ActivityEvent,
  ActivityLevel,
  ActivityType,
} from '../../../shared/activity-events.js';
import {
  addUnread,
  failureOf,
  markSeen,
  totalUnread,
  unreadFor,
} from '../../../renderer/src/api/live/failure-alerts.js';
import { reconnectDelay } from '../../../renderer/src/api/live/reconnect-delay.js';

function event<T extends ActivityType>(
  type: T,
  data: ActivityData<T>,
  level: ActivityLevel = 'error',
): ActivityEvent<T> {
  return { id: 1, at: '2026-05-01T10:00:00.000Z', type, level, message: 'what the bridge says', data };
}

describe('reconnect delays of the /events connection', () => {
  it('start at 1 s and double', () => {
    expect([1, 2, 3].map((failures) => reconnectDelay(failures, 0.5))).toEqual([1_000, 2_000, 4_000]);
  });

  it('never wait long enough to miss a restart by more than 5 s, jitter included', () => {
    for (const failures of [3, 4, 10, 50]) expect(reconnectDelay(failures, 1)).toBeLessThanOrEqual(5_000);
    expect(reconnectDelay(50, 0)).toBeGreaterThanOrEqual(3_000);
  });
});

describe('failures the operator must notice', () => {
  it('are failed posts, publishes, workflows and collections, each on its page', () => {
    expect(
      failureOf(
        event('posting.failed', {
          subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
          ledgerId: 3,
        }),
      ),
    ).toEqual({
      page: '/posts',
      title: 'Post failed',
      body: 'what the bridge says',
    });
    expect(
      failureOf(
        event('publish.failed', {
          subject: { kind: 'publish', id: 'p1', name: null },
          id: 'p1',
          platform: 'Videosite',
          contentProductionId: null,
        }),
      ),
    ).toMatchObject({ page: '/broadcasts', title: 'Publish to Videosite failed' });
    expect(
      failureOf(
        event('guests.workflow', {
          subject: { kind: 'guest', id: 'g', name: 'Ada Lovelace' },
          guestId: 'g',
          runId: 1,
          workflow: 'w',
          stage: 'Confirmed',
        }),
      ),
    ).toMatchObject({ page: '/guests' });
    expect(failureOf(event('collection.finished', { runId: 1, status: 'failed' }))).toMatchObject({
      page: '/analytics',
    });
  });

  it('are not successes, partial collections or generic job failures', () => {
    const started = {
      subject: { kind: 'guest', id: 'g', name: 'Ada Lovelace' },
      guestId: 'g',
      runId: 1,
      workflow: 'w',
      stage: 'Confirmed',
    } as const;
    expect(failureOf(event('guests.workflow', started, 'info'))).toBeNull();
    expect(failureOf(event('collection.finished', { runId: 1, status: 'partial' }, 'warn'))).toBeNull();
    expect(failureOf(event('job.failed', { jobId: 1, kind: 'posting.send', attempts: 10 }))).toBeNull();
    expect(failureOf(event('recorder.filename', { filename: 'x' }, 'info'))).toBeNull();
  });
});

describe('unread failures badge', () => {
  const two = addUnread(addUnread(addUnread({}, '/posts'), '/posts'), '/guests');

  it('counts per page, and Activity shows them all', () => {
    expect(unreadFor(two, '/posts')).toBe(2);
    expect(unreadFor(two, '/guests')).toBe(1);
    expect(unreadFor(two, '/broadcasts')).toBe(0);
    expect(unreadFor(two, '/activity')).toBe(3);
    expect(totalUnread(two)).toBe(3);
  });

  it('clears a page when it is opened, all of them when Activity is', () => {
    expect(markSeen(two, '/posts')).toEqual({ '/guests': 1 });
    expect(totalUnread(markSeen(two, '/activity'))).toBe(0);
  });

  it('is unchanged (same object) when the opened page has nothing unread', () => {
    expect(markSeen(two, '/settings')).toBe(two);
    expect(markSeen(two, '/broadcasts')).toBe(two);
    const none = {};
    expect(markSeen(none, '/activity')).toBe(none);
  });
});
