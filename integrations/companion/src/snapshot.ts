import { isRecord, type JsonRecord } from './bridge-client.js';

/**
 * What the module knows of the bridge, read from its public API (each part from one route),
 * and the pure derivations of variables and feedbacks from it. Answers are read defensively:
 * a field that is missing or of another type reads as "unknown", never as a crash.
 */
export interface RecorderPart {
  filename: string | null;
  requested: string | null;
  /** applied | pending | failed | held, or null when no name is held. */
  state: string | null;
  failure: string | null;
  configured: boolean;
  connected: boolean;
  recording: boolean;
}
export interface TakePart {
  name: string;
  filePath: string | null;
  stoppedAt: string | null;
}
export interface BroadcastPart {
  id: string;
  name: string;
  streamhostId: string | null;
  status: string | null;
  viewerCount: number;
}
export interface PostPart {
  key: string;
  ledgerId: number | null;
  socialPostId: string | null;
  postsvcId: string | null;
  status: string;
  post: string;
  platforms: string[];
  mediaUrls: string[];
  publishAt: string | null;
}
export interface HealthPart {
  /** Peers the bridge found not reachable (crm, postsvc, gateway, automation). */
  peersDown: string[];
}

export interface Snapshot {
  recorder: RecorderPart | null;
  takes: TakePart[] | null;
  broadcasts: BroadcastPart[] | null;
  posts: PostPart[] | null;
  postsLeft: number | null;
  holds: number | null;
  health: HealthPart | null;
}

export const emptySnapshot = (): Snapshot => ({
  recorder: null,
  takes: null,
  broadcasts: null,
  posts: null,
  postsLeft: null,
  holds: null,
  health: null,
});

// --- readers of the bridge's answers ---

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const records = (value: unknown): JsonRecord[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const part = (value: unknown): JsonRecord => (isRecord(value) ? value : {});

/** GET /api/recorder/status */
export function readRecorder(body: JsonRecord): RecorderPart {
  const filename = part(body.filename);
  const connection = part(body.connection);
  return {
    filename: text(filename.filename),
    requested: text(filename.requested),
    state: text(filename.state),
    failure: text(filename.failure),
    configured: connection.configured === true,
    connected: connection.connected === true,
    recording: part(body.recording).active === true,
  };
}

/** GET /api/recorder/takes */
export function readTakes(body: JsonRecord): TakePart[] {
  return records(body.takes).map((take) => ({
    name: text(take.name) ?? '',
    filePath: text(take.filePath),
    stoppedAt: text(take.stoppedAt),
  }));
}

/** GET /api/broadcasts */
export function readBroadcasts(body: JsonRecord): BroadcastPart[] {
  return records(body.data).flatMap((record) => {
    const id = text(record.id);
    if (id === null) return [];
    return [
      {
        id,
        name: text(record.name) ?? id,
        streamhostId: text(record.streamhostId),
        status: text(record.status),
        viewerCount: num(record.viewerCount) ?? 0,
      },
    ];
  });
}

/** GET /api/posts: the posts and the quota left today. */
export function readPosts(body: JsonRecord): { posts: PostPart[]; postsLeft: number | null } {
  const posts = records(body.data).flatMap((record) => {
    const key = text(record.key);
    if (key === null) return [];
    return [
      {
        key,
        ledgerId: num(record.ledgerId),
        socialPostId: text(record.socialPostId),
        postsvcId: text(record.postsvcId),
        status: text(record.status) ?? 'unknown',
        post: text(record.post) ?? '',
        platforms: texts(record.platforms),
        mediaUrls: texts(record.mediaUrls),
        publishAt: text(record.publishAt),
      },
    ];
  });
  return { posts, postsLeft: num(part(body.quota).left) };
}

/** GET /api/guests/holds: the holds still waiting. */
export function readHolds(body: JsonRecord): number {
  return records(body.data).filter((hold) => hold.status === 'held' || hold.status === 'waiting').length;
}

/**
 * GET /health (with the key): the peers it found not reachable (throttled, failing, refused key or
 * unreachable). Its `obs` entry is left out: the recorder is read from /api/recorder/status.
 */
export function readHealth(body: JsonRecord): HealthPart {
  const peers = part(body.peers);
  return {
    peersDown: Object.entries(peers)
      .filter(
        ([name, peer]) =>
          name !== 'obs' && isRecord(peer) && peer.configured === true && peer.reachable === false,
      )
      .map(([name]) => name),
  };
}

// --- derivations ---

export const LIVE_STATUS = 'live';

export function onAir(snapshot: Snapshot): BroadcastPart | null {
  return snapshot.broadcasts?.find((broadcast) => broadcast.status === LIVE_STATUS) ?? null;
}

/** A post post now can send: its ledger row, its provider post and its time known. */
export type PostableNow = PostPart & { ledgerId: number; postsvcId: string; publishAt: string };

/**
 * Whether post now can send this post, by the bridge's own rules: scheduled at the provider by
 * this bridge (a ledger row: the bridge leaves a provider post it did not schedule alone, and its
 * post-now route refuses it) and still ahead (one whose time has come may be going out: refused).
 */
export function canPostNow(post: PostPart, now: Date): post is PostableNow {
  return (
    post.status === 'scheduled' &&
    post.ledgerId !== null &&
    post.postsvcId !== null &&
    post.publishAt !== null &&
    Date.parse(post.publishAt) > now.getTime()
  );
}

/** The posts post now can send, earliest first. */
export function postNowCandidates(snapshot: Snapshot, now: Date): PostableNow[] {
  return (snapshot.posts ?? [])
    .filter((post) => canPostNow(post, now))
    .sort((a, b) => Date.parse(a.publishAt) - Date.parse(b.publishAt));
}

/** The NEXT POST keys' post: the one post now sends when pressed on "the next post". */
export function nextPost(snapshot: Snapshot, now: Date): PostableNow | null {
  return postNowCandidates(snapshot, now)[0] ?? null;
}

/** Take number of the next recording: 1 for the name as asked, n for the bridge's `_Tnn` suffix. */
export function takeNumber(recorder: RecorderPart | null): number | null {
  if (!recorder?.filename) return null;
  if (recorder.requested === null || recorder.filename === recorder.requested) return 1;
  const suffix = /_T(\d{2,})$/.exec(recorder.filename);
  return suffix ? Number(suffix[1]) : 1;
}

/** "14:30" today, "27 Nov 14:30" another day (the Companion machine's time zone). */
export function formatPostTime(iso: string, now: Date): string {
  const at = new Date(iso);
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  if (at.toDateString() === now.toDateString()) return time;
  const month = at.toLocaleString('en-GB', { month: 'short' });
  return `${at.getDate()} ${month} ${time}`;
}

export const peerNames = ['crm', 'postsvc', 'gateway', 'automation', 'recorder'] as const;

/** Peers down: the bridge's unreachable peers, and the recorder when configured but not connected. */
export function peersDown(snapshot: Snapshot): string[] {
  const down = [...(snapshot.health?.peersDown ?? [])];
  const recorder = snapshot.recorder;
  if (recorder?.configured && !recorder.connected) down.push('recorder');
  return down;
}

export function hasFailedPosts(snapshot: Snapshot): boolean {
  return (snapshot.posts ?? []).some((post) => post.status === 'failed' || post.status === 'partial');
}
