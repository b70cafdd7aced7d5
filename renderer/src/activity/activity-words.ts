import type { StoredActivityEvent } from '../../../shared/api/activity.js';
import { localizeInstants } from '../format.js';

/**
 * Activity events in words a person recognises (issue #14.8). The bridge records each event
 * with a message written for its log ("provider post pst_8f2 cancelled …", "SocialPost
 * 64ab… scheduled …", "publish PlatformPublish 65c… (webhook): …"). On screen, the ids in it
 * become what the operator knows the thing by — the post's text, the guest's name, the
 * broadcast's or episode's title — looked up in what the dashboard has already loaded, else a
 * plain noun ("a CRM post"). Instants become local time with UTC beside them. The ids stay in
 * the event's data (the Activity page's "Details", GET /api/activity) for integrators.
 */

/** Labels for ids, built from the lists the dashboard holds (posts, guests, broadcasts, …). */
export interface NameBook {
  /** `“First words of the post…”` by provider post id, ledger id (`ledger:<n>`) or SocialPost id. */
  posts: ReadonlyMap<string, string>;
  /** Name or title of any other record by its id (guest, broadcast, episode, publish record). */
  records: ReadonlyMap<string, string>;
}

export const emptyNameBook: NameBook = { posts: new Map(), records: new Map() };

/** `“text…”`: what a person recognises a post by. */
export function postExcerpt(text: string, max = 48): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return 'a post without text';
  return `“${flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat}”`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

/**
 * Walks cached query data (any shape) for posts and named records. Generic on purpose: the
 * activity list needs no area's types, and a list added later is picked up as it is.
 */
export function buildNameBook(datas: readonly unknown[]): NameBook {
  const posts = new Map<string, string>();
  const records = new Map<string, string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 5) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isRecord(value)) return;
    if (typeof value.post === 'string' && Array.isArray(value.platformStates)) {
      const label = text(value.name) ? `“${String(value.name)}”` : postExcerpt(value.post);
      const postsvcId = text(value.postsvcId);
      const socialPostId = text(value.socialPostId);
      if (postsvcId) posts.set(postsvcId, label);
      if (socialPostId) posts.set(socialPostId, label);
      if (typeof value.ledgerId === 'number') posts.set(`ledger:${value.ledgerId}`, label);
      for (const state of value.platformStates) {
        if (isRecord(state) && text(state.postsvcId)) posts.set(String(state.postsvcId), label);
      }
      return;
    }
    const id = text(value.id);
    const label = text(value.title) ?? text(value.name);
    if (id && label) {
      records.set(id, `“${label}”`);
      const hostId = text(value.streamhostId);
      if (hostId) records.set(hostId, `“${label}”`);
    }
    for (const child of Object.values(value)) if (typeof child === 'object') visit(child, depth + 1);
  };
  for (const data of datas) visit(data, 0);
  return { posts, records };
}

/** What each data key's id is, in words when the name book has nothing for it. */
const idNouns: Record<string, string> = {
  socialPostId: 'a CRM post',
  postsvcId: 'a post',
  postsvcIds: 'a post',
  ledgerId: 'a post',
  broadcastId: 'a broadcast',
  streamhostId: 'a broadcast',
  recordIds: 'a CRM record',
  guestId: 'a guest',
  clipId: 'a clip',
  contentProductionId: 'an episode',
  id: 'a record',
  ids: 'a record',
  dependents: 'a publish record',
  deliveryId: 'a delivery',
  jobId: 'a job',
};

/** Words that name an id's kind in the bridge's messages: "SocialPost <id>", "provider post <id>". */
const idPrefixes =
  /(?:the )?(?:SocialPost|PlatformPublish|StreamhostBroadcast|provider post|post|broadcast|job|ledger|delivery|clip|guest) $/;

/** What a background job does, by its kind (main/areas/*: the queue's registrations). */
export const jobKinds: Record<string, string> = {
  'webhook.item': 'CRM change',
  'webhook.test': 'Test webhook',
  'posting.social-post': 'CRM post',
  'posting.reconcile': 'Checking a post with the provider',
  'publishing.publish': 'Publishing',
  'broadcasts.record': 'Broadcast CRM record',
  'guests.workflow': 'Guest workflow',
};

/** The job's own description at the start of job.* messages, by what it names. */
const jobSubjects: Array<[RegExp, (m: RegExpMatchArray, book: NameBook) => string]> = [
  [
    /^posting: settle ledger (\d+)/,
    (m, b) => `Checking post ${b.posts.get(`ledger:${m[1]}`) ?? ''}`.trimEnd(),
  ],
  [
    /^posting (social-\w+) (\S+)/,
    (m, b) => `CRM post ${b.posts.get(m[2] ?? '') ?? ''} (${m[1]})`.replace('  ', ' '),
  ],
  [
    /^publish PlatformPublish (\S+) \((\w+)\)/,
    (m, b) => `Publishing ${b.records.get(m[1] ?? '') ?? 'a publish record'}`,
  ],
  [
    /^CRM record for broadcast (\S+)/,
    (m, b) => `CRM record of broadcast ${b.records.get(m[1] ?? '') ?? ''}`.trimEnd(),
  ],
  [
    /^((?:social|guest|content|platform|clip)-(?:created|updated|deleted)) (\S+)/,
    (m, b) => `${m[1]} of ${b.posts.get(m[2] ?? '') ?? b.records.get(m[2] ?? '') ?? 'a CRM record'}`,
  ],
  [/^workflow run (\d+)/, () => 'A guest workflow'],
];

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface IdRef {
  value: string;
  key: string;
}

/** The ids an event's data carries, longest first (so an id inside another is replaced after it). */
function idsOf(data: unknown): IdRef[] {
  if (!isRecord(data)) return [];
  const refs: IdRef[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (!Object.hasOwn(idNouns, key)) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (typeof item === 'string' && item !== '') refs.push({ key, value: item });
      else if (typeof item === 'number' && key !== 'jobId' && key !== 'deliveryId') {
        refs.push({ key, value: key === 'ledgerId' ? `ledger:${item}` : String(item) });
      }
    }
  }
  return refs.sort((a, b) => b.value.length - a.value.length);
}

function labelOf(ref: IdRef, book: NameBook): string {
  return book.posts.get(ref.value) ?? book.records.get(ref.value) ?? idNouns[ref.key] ?? 'a record';
}

/** Replaces one id in the message by its label; "“name” (id)" loses the parenthesis. */
function replaceId(message: string, ref: IdRef, book: NameBook): string {
  const raw = ref.value.startsWith('ledger:') ? ref.value.slice('ledger:'.length) : ref.value;
  // A short number ("ledger 5") only where the message names its kind, never inside other numbers.
  const numeric = /^\d+$/.test(raw);
  const label = labelOf(ref, book);
  let out = message.replace(new RegExp(` \\(${escape(raw)}\\)`, 'g'), '');
  out = out.replace(
    new RegExp(`(^|[^\\w-])(${idPrefixes.source.slice(0, -1)})?${escape(raw)}(?![\\w-])`, 'g'),
    (whole: string, before: string, prefix: string | undefined) => {
      if (numeric && !prefix) return whole;
      const kind = prefix?.replace(/^the /, '').trim();
      const noun =
        kind === 'SocialPost'
          ? 'CRM post'
          : kind === 'provider post' || kind === 'ledger'
            ? 'post'
            : kind === 'PlatformPublish'
              ? 'publish record'
              : kind === 'StreamhostBroadcast'
                ? 'broadcast'
                : kind;
      const known = label.startsWith('“');
      if (!noun) return `${before}${label}`;
      // An id not loaded: "the post" where the message says what it is, else the plain noun.
      return `${before}${known ? `${noun} ${label}` : `the ${noun}`}`;
    },
  );
  return out;
}

/** The event's message for a person: names instead of ids, local time with UTC beside it. */
export function activityText(event: StoredActivityEvent, book: NameBook = emptyNameBook): string {
  let message = event.message;
  const data: unknown = event.data;
  if (event.type.startsWith('job.') && isRecord(data)) {
    if (/^job \d+ retried by the operator$/.test(message)) {
      message = 'A failed background job was sent again by the operator';
    } else {
      for (const [pattern, words] of jobSubjects) {
        const match = message.match(pattern);
        if (match) {
          message = words(match, book) + message.slice(match[0].length);
          break;
        }
      }
      const kind = typeof data.kind === 'string' ? jobKinds[data.kind] : undefined;
      if (message === event.message && kind) message = `${kind}: ${message}`;
    }
  }
  for (const ref of idsOf(data)) message = replaceId(message, ref, book);
  message = localizeInstants(message);
  return message.charAt(0).toUpperCase() + message.slice(1);
}
