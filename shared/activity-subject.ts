import { z } from 'zod';

/**
 * What an event is about, named as a person knows it (issue #30.4): `data.subject` on every
 * event that concerns one post, broadcast, guest, episode (ContentProduction), publish record
 * (PlatformPublish) or clip, and on job events whose job concerns one. The event's `message` is
 * written with the same name ("Post “Teaser for Thursday…” cancelled at the provider"), so a
 * reader needs no list of records to understand it; the ids stay beside it in `data`.
 *
 * - `id`: the record's own id — a post's SocialPost id when it is a CRM post, else its provider
 *   post id, else `ledger:<n>`; a broadcast's StreamhostBroadcast record id, else its stream host
 *   id; a guest's, episode's, publish record's or clip's CRM/bridge id.
 * - `name`: a post's CRM name, else its first 48 characters of text (ending "…" when cut); a
 *   broadcast's, episode's or clip's title; a guest's name; a publish record's episode title and
 *   platform. Null when the bridge did not hold it at hand (it never asks a peer just to name an
 *   event): the message then says a plain noun ("a CRM post").
 */
export const subjectKinds = ['post', 'broadcast', 'guest', 'episode', 'publish', 'clip'] as const;
export const activitySubject = z
  .object({
    kind: z.enum(subjectKinds),
    id: z.string(),
    name: z.string().nullable(),
  })
  .meta({
    description:
      'What the event is about, by the name a person knows it by (null: not at hand); ids stay beside it in data.',
  });
export type ActivitySubject = z.infer<typeof activitySubject>;
