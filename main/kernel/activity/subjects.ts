import type { ActivitySubject } from '../../../shared/activity-events.js';

/**
 * Building an event's `data.subject` and the words its message names it by (issue #30.4; the
 * shape is documented at `activitySubject` in shared/activity-events.ts). Every area names its
 * records here, so "CRM post “Teaser…”", "guest Ada Lovelace" and the plain noun for a record
 * whose name was not at hand read the same in every event.
 */

export type { ActivitySubject };

/** A post's first 48 characters, whitespace flattened, "…" where cut; null for an empty text. */
export function postExcerpt(text: string | null | undefined, max = 48): string | null {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A post's ids, one of them at least: a CRM post's SocialPost id, its provider post id, its ledger row. */
export type PostIds = {
  socialPostId?: string | null | undefined;
  postsvcId?: string | null | undefined;
  ledgerId?: number | null | undefined;
} & ({ socialPostId: string } | { postsvcId: string } | { ledgerId: number });

/**
 * A post, by its CRM name, else the excerpt of its text. Its id: the SocialPost id of a CRM post,
 * else the provider post id, else `ledger:<n>`.
 */
export function postSubject(ids: PostIds, name: { name?: unknown; text?: unknown }): ActivitySubject {
  const text = typeof name.text === 'string' ? name.text : null;
  return { kind: 'post', id: postId(ids), name: nonEmpty(name.name) ?? postExcerpt(text) };
}

function postId(ids: PostIds): string {
  const own = nonEmpty(ids.socialPostId) ?? nonEmpty(ids.postsvcId);
  if (own !== null) return own;
  if (typeof ids.ledgerId === 'number') return `ledger:${ids.ledgerId}`;
  // Only a blank id string gets here: a caller's mistake, not a post to name.
  throw new Error('a post subject needs a SocialPost id, a provider post id or a ledger row');
}

/** Any other record by its id and its name or title (null: not at hand). */
export function recordSubject(
  kind: Exclude<ActivitySubject['kind'], 'post'>,
  id: string,
  name: unknown,
): ActivitySubject {
  return { kind, id, name: nonEmpty(name) };
}

const nouns: Record<ActivitySubject['kind'], { one: string; a: string }> = {
  post: { one: 'post', a: 'a post' },
  broadcast: { one: 'broadcast', a: 'a broadcast' },
  guest: { one: 'guest', a: 'a guest' },
  episode: { one: 'episode', a: 'an episode' },
  publish: { one: 'publish record', a: 'a publish record' },
  clip: { one: 'clip', a: 'a clip' },
};

/**
 * The subject as a message names it: `post “Teaser for Thursday…”`, `guest Ada Lovelace` (a
 * person's name needs no quotes), else the plain noun (`a post`). `noun` overrides the kind's
 * word, e.g. `CRM post` (then `a CRM post` when unnamed).
 */
export function named(subject: ActivitySubject, noun?: string): string {
  const word = noun ?? nouns[subject.kind].one;
  if (subject.name === null) {
    return noun ? `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}` : nouns[subject.kind].a;
  }
  return subject.kind === 'guest' ? `${word} ${subject.name}` : `${word} “${subject.name}”`;
}

/** A message's first letter upper-case (it may start with a subject's words). */
export function capitalize(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
