import { finishedBroadcastStatuses } from '../../../shared/api/broadcasts.js';
import type { PostView } from '../../../shared/api/posting.js';
import type { ProductionSummary, ProductionThread } from '../../../shared/api/productions.js';
import type { CrmRecord } from '../../peers/crm.js';
import { labelsOf, numberOf, textOf } from './crm-fields.js';

type Thread = Omit<ProductionThread, 'success'>;

/** CRM records as the thread shows them: fields read as they are, absent ones null. */
export const toSummary = (record: CrmRecord): ProductionSummary => ({
  id: record.id,
  name: textOf(record, 'name'),
  contentType: textOf(record, 'contentType'),
  stage: textOf(record, 'stage'),
  showName: textOf(record, 'showName'),
  scheduledDate: textOf(record, 'scheduledDate'),
});

export const toProduction = (id: string, record: CrmRecord | null): Thread['production'] =>
  record
    ? {
        ...toSummary(record),
        description: textOf(record, 'description'),
        platforms: labelsOf(record, 'platforms'),
        guestBookingId: textOf(record, 'guestBookingId'),
        recordingUrl: textOf(record, 'recordingUrl'),
      }
    : {
        id,
        name: null,
        contentType: null,
        stage: null,
        showName: null,
        scheduledDate: null,
        description: null,
        platforms: [],
        guestBookingId: null,
        recordingUrl: null,
      };

export const toGuest = (record: CrmRecord, workflow: Thread['guests'][number]['workflow']) => ({
  id: record.id,
  name: textOf(record, 'name'),
  stage: textOf(record, 'stage'),
  scheduledDate: textOf(record, 'scheduledDate'),
  workflow,
});

const ON_AIR = 'live';

export const toBroadcast = (record: CrmRecord): Thread['broadcasts'][number] => {
  const status = textOf(record, 'status');
  return {
    id: record.id,
    name: textOf(record, 'name') ?? '(unnamed)',
    status,
    onAir: status === ON_AIR,
    viewerCount: numberOf(record, 'viewerCount') ?? 0,
    peakViewers: numberOf(record, 'peakViewers'),
    scheduledAt: textOf(record, 'scheduledAt'),
    startedAt: textOf(record, 'startedAt'),
    dashboardUrl: textOf(record, 'dashboardUrl'),
  };
};

/** Broadcasts still to come or on air first, then the finished ones, each by time. */
export const broadcastOrder = (a: Thread['broadcasts'][number], b: Thread['broadcasts'][number]) => {
  const done = (x: typeof a) => (x.status !== null && finishedBroadcastStatuses.includes(x.status) ? 1 : 0);
  return done(a) - done(b) || (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? '');
};

export const toClip = (record: CrmRecord): Thread['clips'][number] => ({
  id: record.id,
  name: textOf(record, 'name'),
  status: textOf(record, 'status'),
  hookQuote: textOf(record, 'hookQuote'),
  durationS: numberOf(record, 'duration'),
  aspectRatio: textOf(record, 'aspectRatio'),
  videoUrls: ['videoUrlLandscape', 'videoUrlPortrait', 'videoUrlSquare']
    .map((key) => textOf(record, key))
    .filter((url) => url !== null),
});

export const toPost = (
  record: CrmRecord,
  numbers: Thread['posts'][number]['numbers'],
): Thread['posts'][number] => ({
  id: record.id,
  from: 'crm',
  content: textOf(record, 'content') ?? textOf(record, 'name') ?? '',
  platform: textOf(record, 'platform'),
  postType: textOf(record, 'postType'),
  status: textOf(record, 'status'),
  scheduledAt: textOf(record, 'scheduledAt'),
  postsvcId: textOf(record, 'postsvcId'),
  url: textOf(record, 'postUrl'),
  error: textOf(record, 'error'),
  clipId: textOf(record, 'clipId'),
  numbers,
});

/** A post scheduled from the dashboard (the ledger's), as the thread lists a SocialPost. */
export const toLedgerPost = (
  view: PostView,
  numbers: Thread['posts'][number]['numbers'],
): Thread['posts'][number] => ({
  id: view.key,
  from: 'dashboard',
  content: view.post,
  // As the CRM spells a platform (`Shortvideo`), beside its SocialPosts.
  platform: view.platforms.map((key) => key.charAt(0).toUpperCase() + key.slice(1)).join(', ') || null,
  postType: null,
  status: view.status.charAt(0).toUpperCase() + view.status.slice(1),
  scheduledAt: view.publishAt,
  postsvcId: view.postsvcId,
  url: view.platformStates.find((state) => state.postUrl !== null)?.postUrl ?? null,
  error: view.error,
  clipId: view.clipId,
  numbers,
});

export const toPublish = (record: CrmRecord): Thread['publishes'][number] => ({
  id: record.id,
  name: textOf(record, 'name'),
  platform: textOf(record, 'platform'),
  publishType: textOf(record, 'publishType'),
  status: textOf(record, 'status'),
  scheduledAt: textOf(record, 'scheduledAt'),
  platformUrl: textOf(record, 'platformUrl'),
  error: textOf(record, 'status') === 'Failed' ? textOf(record, 'apiResponse') : null,
});

/** By scheduled time, unscheduled last, then by id (stable). */
export const byScheduledAt = <T extends { id: string; scheduledAt: string | null }>(a: T, b: T) =>
  (a.scheduledAt ?? '\uffff').localeCompare(b.scheduledAt ?? '\uffff') || a.id.localeCompare(b.id);
