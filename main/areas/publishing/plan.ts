import type { PublishRouteTable } from '../../config/publish-routes.js';

/**
 * The decisions of platform publishing (spec §3.5, DESIGN §6.4), free of I/O: which gateway
 * path a record goes to, whether it has to wait for another platform, which waiting records
 * a publish releases, and what is sent.
 */

/** A PlatformPublish record, as far as these decisions need it. */
export interface PublishRecord {
  id: string;
  platform: string | null;
  publishType: string | null;
  status: string | null;
  contentProductionId: string | null;
  streamUrl: string | null;
  streamKey: string | null;
}

export function toPublishRecord(record: { id: string } & Record<string, unknown>): PublishRecord {
  const text = (key: string): string | null => {
    const value = record[key];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  return {
    id: record.id,
    platform: text('platform'),
    publishType: text('publishType'),
    status: text('status'),
    contentProductionId: text('contentProductionId'),
    streamUrl: text('streamUrl'),
    streamKey: text('streamKey'),
  };
}

export type RouteChoice =
  | { ok: true; platform: string; kind: 'livestream' | 'upload'; path: string; dependsOn: string | null }
  | { ok: false; error: string };

/** The table's key for a platform label: exact, else ignoring case ("videosite" → "Videosite"). */
export function routeKey(table: PublishRouteTable, platform: string | null): string | null {
  if (platform === null) return null;
  if (Object.hasOwn(table, platform)) return platform;
  const lower = platform.toLowerCase();
  return Object.keys(table).find((key) => key.toLowerCase() === lower) ?? null;
}

/** Livestream path when publishType is Livestream, else the upload path (spec §6). */
export function chooseRoute(
  table: PublishRouteTable,
  platform: string | null,
  publishType: string | null,
): RouteChoice {
  const key = routeKey(table, platform);
  const route = key === null ? undefined : table[key];
  if (key === null || !route) return { ok: false, error: `no route for platform ${platform ?? '(none)'}` };
  const kind = publishType?.toLowerCase() === 'livestream' ? 'livestream' : 'upload';
  return { ok: true, platform: key, kind, path: route[kind], dependsOn: route.dependsOn ?? null };
}

function samePlatform(table: PublishRouteTable, a: string | null, b: string): boolean {
  return a !== null && (a === b || routeKey(table, a) === b);
}

export type DependencyState =
  | { kind: 'none' }
  | { kind: 'ready'; primaryId: string; streamUrl: string | null; streamKey: string | null }
  | { kind: 'wait'; on: string; reason: string }
  | { kind: 'fail'; error: string };

/**
 * A record whose platform depends on another (Streamhost on Videosite) publishes once a
 * sibling of the same ContentProduction on that platform is Published, with its stream
 * details. Until then it waits, also when that sibling does not exist yet: it may be created.
 */
export function resolveDependency(
  table: PublishRouteTable,
  record: PublishRecord,
  dependsOn: string | null,
  siblings: readonly PublishRecord[],
): DependencyState {
  if (dependsOn === null) return { kind: 'none' };
  if (record.contentProductionId === null) {
    return {
      kind: 'fail',
      error: `${record.platform} depends on ${dependsOn}, but the record has no contentProductionId to find the ${dependsOn} record by`,
    };
  }
  const primaries = siblings.filter(
    (s) =>
      s.id !== record.id &&
      s.contentProductionId === record.contentProductionId &&
      samePlatform(table, s.platform, dependsOn),
  );
  const published =
    primaries.find((s) => s.status === 'Published' && s.streamUrl !== null) ??
    primaries.find((s) => s.status === 'Published');
  if (published) {
    return {
      kind: 'ready',
      primaryId: published.id,
      streamUrl: published.streamUrl,
      streamKey: published.streamKey,
    };
  }
  if (primaries.length === 0) {
    return {
      kind: 'wait',
      on: dependsOn,
      reason: `waiting for a ${dependsOn} publish record of this production`,
    };
  }
  const statuses = [...new Set(primaries.map((p) => p.status ?? 'no status'))].join(', ');
  return { kind: 'wait', on: dependsOn, reason: `waiting for ${dependsOn} to publish (it is ${statuses})` };
}

/** Platforms some other platform depends on. */
export function isPrimaryPlatform(table: PublishRouteTable, platform: string | null): boolean {
  const key = routeKey(table, platform);
  return key !== null && Object.values(table).some((route) => route.dependsOn === key);
}

/** The Queued siblings that waited for `primary` to publish. */
export function waitingDependents(
  table: PublishRouteTable,
  primary: PublishRecord,
  siblings: readonly PublishRecord[],
): PublishRecord[] {
  const primaryKey = routeKey(table, primary.platform);
  if (primaryKey === null || primary.contentProductionId === null) return [];
  return siblings.filter((s) => {
    if (s.id === primary.id || s.status !== 'Queued' || s.contentProductionId !== primary.contentProductionId)
      return false;
    const key = routeKey(table, s.platform);
    return key !== null && table[key]?.dependsOn === primaryKey;
  });
}

/** EspoCRM's own attributes: not publish fields. */
const systemAttributes = new Set([
  'deleted',
  'createdAt',
  'modifiedAt',
  'createdById',
  'createdByName',
  'modifiedById',
  'modifiedByName',
  'assignedUserId',
  'assignedUserName',
  'teamsIds',
  'teamsNames',
  'followersIds',
  'followersNames',
  'isFollowed',
  'versionNumber',
]);
/** Written back by the bridge, not sent (spec §2.5). */
const resultAttributes = new Set([
  'status',
  'platformUrl',
  'platformId',
  'streamUrl',
  'streamKey',
  'apiResponse',
  'publishedAt',
]);

/**
 * What the gateway gets (spec §6): title, description, thumbnailUrl, scheduledAt and the
 * record's other publish fields (empty ones left out), plus, for a dependent, the primary's
 * streamUrl and streamKey.
 */
export function publishFields(
  record: { id: string } & Record<string, unknown>,
  stream?: { streamUrl: string | null; streamKey: string | null },
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (systemAttributes.has(key) || resultAttributes.has(key)) continue;
    if (value === null || value === undefined || value === '') continue;
    fields[key] = value;
  }
  if (stream?.streamUrl) fields.streamUrl = stream.streamUrl;
  if (stream?.streamKey) fields.streamKey = stream.streamKey;
  return fields;
}

/** apiResponse text of a gateway failure: `CODE: message (details)`. */
export function failureText(failure: {
  code?: string | undefined;
  message: string;
  details?: unknown;
}): string {
  const details =
    failure.details === undefined || failure.details === null
      ? ''
      : ` (${typeof failure.details === 'string' ? failure.details : JSON.stringify(failure.details)})`;
  return `${failure.code ? `${failure.code}: ` : ''}${failure.message}${details}`;
}
