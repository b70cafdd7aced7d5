import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  activityDataSchema,
  activityEvent,
  activityTypes,
  isActivityType,
  parseActivityEvent,
  type ActivityData,
  type ActivityDataArgs,
  type ActivityEvent,
  type ActivityLevel,
  type ActivityType,
} from '../../../shared/activity-events.js';
import { listActivity, storedActivityEvent } from '../../../shared/api/activity.js';

/** One payload per event type, as the bridge's call sites record them (typed: a missing type fails tsc). */
const examples: { [T in ActivityType]: ActivityData<T> } = {
  'bridge.started': null,
  'jobs.recovered': null,
  'job.done': { jobId: 7, kind: 'webhook.item' },
  'job.retry': { jobId: 7, kind: 'posting.social', runAt: '2026-05-01T10:00:05.000Z' },
  'job.failed': { jobId: 7, kind: 'publishing.publish', attempts: 5 },
  'webhook.received': { deliveryId: 3, event: 'social-created', ids: ['sp1', 'sp2'] },
  'webhook.failed': { deliveryId: 3, event: 'guest-updated', id: 'g1' },
  'webhook.test': { deliveryId: 4 },
  'catchup.finished': { runId: 2, seen: 50, acted: 50, errors: 0, queued: 0 },
  'catchup.failed': { runId: 3, attempt: 2, retryInS: 4 },
  'catchup.alarm': {
    entity: 'SocialPost',
    vanished: 6,
    tracked: 20,
    stillHappens: ['post "Episode 12 promo" goes out on microblog at 2026-12-01 09:00 UTC'],
  },
  'posting.scheduled': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    socialPostId: 'sp1',
    postsvcId: 'p-1',
    warnings: ['close to another post'],
  },
  'posting.cancelled': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    socialPostId: 'sp1',
    postsvcIds: ['p-1', 'p-2'],
  },
  'posting.moved': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    socialPostId: 'sp1',
    postsvcId: 'p-1',
    from: '2026-05-01T10:00:00.000Z',
    to: '2026-05-02T10:00:00.000Z',
  },
  'posting.confirmed': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    ledgerId: 12,
    postsvcId: 'p-9',
  },
  'posting.failed': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    socialPostId: 'sp1',
    code: 'PLATFORM_ERROR',
  },
  'posting.retry': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    socialPostId: 'sp1',
    event: 'social-updated',
  },
  'posting.published': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    ledgerId: 12,
    postsvcId: 'p-9',
    socialPostId: 'sp1',
    postUrls: ['https://microblog.example/status/1'],
  },
  'posting.unconfirmed': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    ledgerId: 12,
    postsvcId: 'p-9',
  },
  'posting.still-live': {
    subject: { kind: 'post', id: 'sp1', name: 'Teaser for Thursday' },
    ledgerId: 12,
    postsvcId: 'p-9',
    socialPostId: null,
    platforms: ['microblog'],
  },
  'posting.sync': {
    synced: 4,
    updated: 1,
    errors: 1,
    failures: [{ socialPostId: 'sp2', error: 'CRM down' }],
  },
  'publish.abandoned': { subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' }, id: 'pp1' },
  'publish.vanished': { subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' }, id: 'pp1' },
  'publish.retry': {
    subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' },
    id: 'pp1',
    platform: 'videohub',
    from: 'Failed',
  },
  'publish.waiting': {
    subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' },
    id: 'pp2',
    platform: 'clipapp',
    waitingOn: 'videohub',
    contentProductionId: 'cp1',
  },
  'publish.published': {
    subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' },
    id: 'pp1',
    platform: 'videohub',
    platformUrl: 'https://video.example/v/1',
    platformId: 'v1',
    contentProductionId: 'cp1',
  },
  'publish.dependents': {
    subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' },
    id: 'pp1',
    dependents: ['pp2'],
    contentProductionId: 'cp1',
  },
  'publish.duplicate': {
    subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' },
    id: 'pp1',
    platformUrl: 'https://video.example/v/1',
  },
  'publish.failed': {
    subject: { kind: 'publish', id: 'pp1', name: 'Ep 1 · Videosite' },
    id: 'pp1',
    platform: null,
    contentProductionId: null,
    code: 'AUTH_EXPIRED',
  },
  'broadcast.created': {
    subject: { kind: 'broadcast', id: 'b1', name: 'Live from the harbour' },
    broadcastId: 'b1',
    recordId: null,
    scheduledAt: '2026-05-01T18:00:00.000Z',
    channelId: null,
    settings: { isPublic: true, chatEnabled: false, dvr: true },
    streamSource: { type: 'rtmp', url: 'rtmp://ingest.example/live', key: '••••1234' },
  },
  'broadcast.deleted': {
    subject: { kind: 'broadcast', id: 'b1', name: 'Live from the harbour' },
    broadcastId: 'b1',
    recordIds: ['sb1'],
  },
  'broadcast.ended': {
    subject: { kind: 'broadcast', id: 'b1', name: 'Live from the harbour' },
    broadcastId: 'b1',
    recordIds: ['sb1'],
  },
  'broadcast.linked': {
    subject: { kind: 'broadcast', id: 'sb1', name: 'Live from the harbour' },
    broadcastRecordId: 'sb1',
    contentProductionId: 'cp2',
    production: { kind: 'episode', id: 'cp2', name: 'Episode 12' },
    fromContentProductionId: null,
  },
  'broadcast.status': {
    subject: { kind: 'broadcast', id: 'b1', name: 'Live from the harbour' },
    id: 'sb1',
    streamhostId: 'b1',
    from: null,
    to: 'live',
    viewerCount: 42,
  },
  'broadcast.sync': { scope: 'active', synced: 2, updated: 1, errors: 0, failures: [] },
  'analytics.demo': { socialRows: 180, contentRows: 24 },
  'collection.progress': { runId: 5, phase: 'social', done: 2, total: 6 },
  'collection.finished': { runId: 5, phase: 'done', status: 'partial', code: 'COLLECTION_FAILED' },
  'guests.stage': {
    subject: { kind: 'guest', id: 'g1', name: 'Ada Lovelace' },
    guestId: 'g1',
    source: 'webhook',
    from: 'Responded',
    to: 'Confirmed',
    runId: 2,
    workflow: 'x',
  },
  'guests.workflow': {
    subject: { kind: 'guest', id: 'g1', name: 'Ada Lovelace' },
    guestId: 'g1',
    runId: 2,
    workflow: 'guest-confirmed',
    stage: 'Confirmed',
    message: 'automation answered 500',
    hint: null,
    httpStatus: 500,
  },
  'guests.hold': {
    subject: { kind: 'guest', id: 'g1', name: 'Ada Lovelace' },
    guestId: 'g1',
    stage: 'Confirmed',
    workflow: 'guest-confirmed',
    missing: ['date', 'time'],
    outcome: 'sent-anyway',
    runId: 3,
  },
  'guests.templates': { templates: ['confirmation'], settings: ['senderName'] },
  'guests.demo': { guests: 8, entries: 21 },
  'clips.analyzed': {
    subject: { kind: 'episode', id: 'cp1', name: null },
    contentProductionId: 'cp1',
    clips: 6,
    words: 9000,
    format: 'srt',
    ms: 180,
  },
  'clips.draft-created': {
    subject: { kind: 'clip', id: 'c1', name: 'The truth is' },
    clipId: 'c1',
    contentProductionId: 'cp1',
  },
  'clips.fit': {
    subject: { kind: 'clip', id: 'c1', name: 'The truth is' },
    clipId: 'c1',
    contentProductionId: 'cp1',
    problems: [{ platform: 'shortvid', kind: 'duration', message: '95 s is over 60 s' }],
  },
  'render.state': {
    renderId: 'rn_AAAAAAAAAAAAAAAA',
    analysisId: 'an_AAAAAAAAAAAAAAAA',
    n: 2,
    state: 'rendering',
    formats: ['9x16', '16x9'],
    restarted: true,
  },
  'render.progress': { renderId: 'rn_AAAAAAAAAAAAAAAA', percent: 42, etaS: 31 },
  'render.ready': {
    renderId: 'rn_AAAAAAAAAAAAAAAA',
    clipId: 'clip00000000000001',
    state: 'uploading',
    done: 1,
    total: 3,
  },
  'recorder.filename': { filename: '20260501_Episode_12' },
  'recorder.connected': { obsFilename: 'ep42', state: 'applied' },
  'recorder.disconnected': { error: 'Server stopping. (code 1001)' },
  'recorder.take': { takeId: 3, name: 'ep42', filePath: '/home/studio/Videos/ep42.mkv', stopped: true },
  'recorder.mark': { markId: 9, takeId: 3 },
  'settings.updated': { keys: ['CRM_URL'] },
};

function wire<T extends ActivityType>(type: T, data: unknown, level: ActivityLevel = 'info') {
  return { id: 1, at: '2026-05-01T10:00:00.000Z', type, level, message: `${type} happened`, data };
}

describe('activity events', () => {
  it('has one example per event type', () => {
    expect(Object.keys(examples).sort()).toEqual([...activityTypes].sort());
    expect(new Set(activityTypes).size).toBe(activityTypes.length);
  });

  it.each(activityTypes)('parses a %s event, typed by its type', (type) => {
    const event = wire(type, examples[type]);
    expect(activityEvent.parse(event)).toEqual(event);
    const result = parseActivityEvent(event);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.event.type).toBe(type);
    // The stored/wire shape (GET /api/activity) accepts every event too.
    expect(storedActivityEvent.safeParse(event).success).toBe(true);
  });

  it('narrows data by type', () => {
    const result = parseActivityEvent(wire('webhook.received', examples['webhook.received']));
    if (!result.ok) throw new Error('expected a parsed event');
    const { event } = result;
    // Compile-time check: after narrowing, data.event is the webhook name.
    if (event.type === 'webhook.received') expect(event.data.event).toBe('social-created');
    else throw new Error(`unexpected type ${event.type}`);
  });

  it.each([
    ['a wrong field type', wire('webhook.received', { deliveryId: '3', event: 'social-created' })],
    ['a missing field', wire('job.done', { kind: 'webhook.item' })],
    ['a value outside its enum', wire('webhook.received', { deliveryId: 3, event: 'social-archived' })],
    ['data where the type has none', wire('bridge.started', { version: '1.0.0' })],
    ['no data where the type has some', wire('broadcast.status', null)],
    [
      'a nested field of the wrong type',
      wire('posting.sync', { ...examples['posting.sync'], failures: [{}] }),
    ],
    ['an unknown level', wire('job.done', examples['job.done'], 'debug' as ActivityLevel)],
    ['no id', { ...wire('job.done', examples['job.done']), id: undefined }],
  ])('rejects %s', (_what, event) => {
    expect(activityEvent.safeParse(event).success).toBe(false);
    const result = parseActivityEvent(event);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toBe('invalid');
  });

  it('keeps fields it does not know (stored history, newer bridges)', () => {
    const event = wire('job.done', { ...examples['job.done'], durationMs: 12 });
    expect(activityEvent.parse(event).data).toEqual({ jobId: 7, kind: 'webhook.item', durationMs: 12 });
    expect(activityDataSchema('recorder.filename').parse({ filename: 'a', by: 'device' })).toEqual({
      filename: 'a',
      by: 'device',
    });
  });

  it('reports an unknown type apart from a malformed event', () => {
    const future = wire('job.done', {});
    const unknown = { ...future, type: 'podcast.exported' };
    expect(parseActivityEvent(unknown)).toEqual({
      ok: false,
      reason: 'unknown-type',
      type: 'podcast.exported',
    });
    expect(isActivityType('podcast.exported')).toBe(false);
    expect(isActivityType('toString')).toBe(false);
    expect(isActivityType('job.done')).toBe(true);
    // History with an unknown type still lists.
    const page = listActivity.response.safeParse({
      success: true,
      data: [unknown, wire('jobs.recovered', null)],
    });
    expect(page.success).toBe(true);
    expect(parseActivityEvent('not an event')).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('fits the call shape record(type, level, message, ...data)', () => {
    const recorded: unknown[] = [];
    function record<T extends ActivityType>(
      type: T,
      level: ActivityLevel,
      message: string,
      ...[data = null]: ActivityDataArgs<T>
    ): ActivityEvent {
      recorded.push(data);
      return activityEvent.parse({
        id: recorded.length,
        at: new Date(0).toISOString(),
        type,
        level,
        message,
        data,
      });
    }
    record('bridge.started', 'info', 'bridge 1.0 started');
    record('jobs.recovered', 'warn', '2 interrupted job(s) resumed', null);
    record('webhook.received', 'info', 'test webhook received', { deliveryId: 1, event: 'test' });
    // @ts-expect-error: a misspelt field is a type error
    expect(() => record('job.done', 'info', 'done', { jobId: 1, kindd: 'x' })).toThrow();
    // @ts-expect-error: a type with a payload needs it
    expect(() => record('job.done', 'info', 'done')).toThrow();
    // @ts-expect-error: not an event type
    expect(() => record('no.such', 'info', 'x', null)).toThrow();
  });

  it('records every type the bridge records, and only those', () => {
    const recorded = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          for (const match of readFileSync(path, 'utf8').matchAll(/activity\.record\(\s*'([^']+)'/g))
            recorded.add(match[1]!);
        }
      }
    };
    walk(join(import.meta.dirname, '../../../main'));
    expect([...recorded].filter((type) => !isActivityType(type))).toEqual([]);
    expect(activityTypes.filter((type) => !recorded.has(type))).toEqual([]);
  });
});
