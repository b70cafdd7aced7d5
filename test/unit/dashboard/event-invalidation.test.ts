import { describe, expect, it } from 'vitest';
import type { ActivityData, ActivityEvent, ActivityType } from '../../../shared/activity-events.js';
import { activityTypes } from '../../../shared/activity-events.js';
import { webhookEvents } from '../../../shared/api/webhooks.js';
import {
  addPendingKeys,
  invalidationTable,
  keysByWebhook,
  keysForEveryEvent,
  staleKeysFor,
} from '../../../renderer/src/api/live/event-invalidation.js';
import { queryKeys } from '../../../renderer/src/api/transport/query-keys.js';

function event<T extends ActivityType>(type: T, data: ActivityData<T>): ActivityEvent<T> {
  return {
    id: 1,
    at: '2026-05-01T10:00:00.000Z',
    type,
    level: 'info',
    message: 'whatever it says',
    data,
  } as ActivityEvent<T>;
}

describe('live event invalidation', () => {
  it('has a row for every event type and every webhook', () => {
    expect(Object.keys(invalidationTable).sort()).toEqual([...activityTypes].sort());
    expect(Object.keys(keysByWebhook).sort()).toEqual([...webhookEvents, 'test'].sort());
  });

  it('refreshes the job queue and health for every event', () => {
    const keys = staleKeysFor(
      event('clips.analyzed', {
        subject: { kind: 'episode', id: 'cp1', name: null },
        contentProductionId: 'cp1',
        clips: 3,
        words: 900,
        format: 'plain',
        ms: 20,
      }),
    );
    expect(keys).toEqual(keysForEveryEvent);
    expect(keys).toEqual([queryKeys.jobs, queryKeys.health]);
  });

  it('routes a webhook by the webhook name in its data, not by its message', () => {
    const social = event('webhook.received', { deliveryId: 1, event: 'social-created', ids: ['sp1'] });
    expect(staleKeysFor({ ...social, message: 'guest-updated: 1 item' })).toContainEqual(queryKeys.posts);
    expect(staleKeysFor(social)).not.toContainEqual(queryKeys.guests);
    const guest = event('webhook.received', { deliveryId: 2, event: 'guest-updated', ids: ['g1'] });
    expect(staleKeysFor({ ...guest, message: 'social-created: 1 item' })).toContainEqual(queryKeys.guests);
    expect(staleKeysFor(guest)).not.toContainEqual(queryKeys.posts);
    const failed = event('webhook.failed', { deliveryId: 3, event: 'platform-updated', id: 'pp1' });
    expect(staleKeysFor(failed)).toContainEqual(queryKeys.publishing);
  });

  it('maps each area event to its area', () => {
    expect(
      staleKeysFor(
        event('posting.failed', {
          subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' },
          ledgerId: 3,
        }),
      ),
    ).toContainEqual(queryKeys.posts);
    expect(
      staleKeysFor(
        event('publish.abandoned', {
          subject: { kind: 'broadcast', id: 'b1', name: 'Live from the harbour' },
          id: 'pp1',
        }),
      ),
    ).toContainEqual(queryKeys.publishing);
    expect(
      staleKeysFor(
        event('broadcast.deleted', {
          subject: { kind: 'broadcast', id: 'b1', name: 'Live from the harbour' },
          broadcastId: 'b1',
          recordIds: [],
        }),
      ),
    ).toContainEqual(queryKeys.broadcasts);
    expect(staleKeysFor(event('recorder.filename', { filename: 'x' }))).toContainEqual(
      queryKeys.recorderFilename,
    );
    expect(staleKeysFor(event('settings.updated', { keys: ['CRM_URL'] }))).toContainEqual(queryKeys.settings);
    expect(
      staleKeysFor(event('guests.templates', { templates: [], settings: ['senderName'] })),
    ).toContainEqual(queryKeys.guestTemplates);
    expect(
      staleKeysFor(event('collection.finished', { runId: 1, status: 'succeeded', phase: 'done' })),
    ).toContainEqual(queryKeys.analytics);
  });

  it('refreshes the collection runs when a run starts, not on every progress step', () => {
    expect(staleKeysFor(event('collection.progress', { runId: 1, phase: 'started' }))).toContainEqual(
      queryKeys.analyticsRuns,
    );
    expect(
      staleKeysFor(event('collection.progress', { runId: 1, phase: 'social', done: 1, total: 4 })),
    ).toEqual(keysForEveryEvent);
  });

  it('collects a burst into each key once, a prefix covering the keys under it', () => {
    let pending = addPendingKeys([], [queryKeys.jobs, queryKeys.health]);
    pending = addPendingKeys(pending, [queryKeys.jobs, queryKeys.health, queryKeys.analyticsRuns]);
    expect(pending).toEqual([queryKeys.jobs, queryKeys.health, queryKeys.analyticsRuns]);
    pending = addPendingKeys(pending, [queryKeys.analytics]);
    expect(pending).toEqual([queryKeys.jobs, queryKeys.health, queryKeys.analytics]);
    pending = addPendingKeys(pending, [queryKeys.analyticsRuns, queryKeys.posts]);
    expect(pending).toEqual([queryKeys.jobs, queryKeys.health, queryKeys.analytics, queryKeys.posts]);
  });
});
