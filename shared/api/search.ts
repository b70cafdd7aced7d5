import { z } from 'zod';
import { defineContract, peerFailure, TWO_NOT_SPACES } from './contract.js';

/**
 * One search over the studio's records (issue #42.3): productions, guests, posts (by text), takes
 * and broadcasts, each with a line of context and the dashboard address that opens it.
 */
export const searchKinds = ['production', 'guest', 'post', 'take', 'broadcast'] as const;
export type SearchKind = (typeof searchKinds)[number];

/** At most this many results of one kind. */
export const SEARCH_RESULTS_PER_KIND = 20;
export const SEARCH_QUERY_MIN = 2;
export const SEARCH_QUERY_MAX = 100;

export const searchResult = z.object({
  kind: z.enum(searchKinds),
  /** The CRM record's id; a take's own number as text. */
  id: z.string(),
  title: z.string(),
  /** One short line: stage, scheduled date, status. */
  context: z.string(),
  /** The dashboard address that opens it, e.g. `#/productions/<id>`. */
  href: z.string(),
  /** The production it belongs to, when the bridge or the CRM knows it. */
  productionId: z.string().nullable(),
});
export type SearchResult = z.infer<typeof searchResult>;

export const searchMissing = z.object({
  /** What could not be searched. */
  kinds: z.array(z.enum(searchKinds)),
  /** Why, in words ("The CRM did not answer: …"). */
  reason: z.string(),
  /** The peer's failure, for the dashboard's words (as in the error envelope). */
  peer: peerFailure.optional(),
});
export type SearchMissing = z.infer<typeof searchMissing>;

export const search = defineContract({
  method: 'get',
  path: '/api/search',
  tag: 'search',
  summary:
    'Finds productions, guests, posts (by text), takes and broadcasts: at most 5 CRM reads and 20 results per kind; "episode 12" finds episode 12 with its guest, takes, posts and broadcasts. A CRM that does not answer leaves what the bridge stores, and `missing` says what was not searched.',
  auth: 'key',
  query: z.object({
    // Checked as sent, not trimmed first: what /openapi.json states is what is refused ("j " was
    // documented valid, 2 characters, and refused once trimmed). The bridge trims it after.
    q: z
      .string()
      .min(SEARCH_QUERY_MIN)
      .max(SEARCH_QUERY_MAX)
      .regex(TWO_NOT_SPACES, `must have at least ${SEARCH_QUERY_MIN} characters other than spaces`),
  }),
  response: z.object({
    success: z.literal(true),
    q: z.string(),
    /** The episode number the text asks for ("episode 12", "ep 12", "#12"), else null. */
    episode: z.number().int().nullable(),
    results: z.array(searchResult),
    missing: z.array(searchMissing),
  }),
});
export type SearchResponse = z.infer<typeof search.response>;
