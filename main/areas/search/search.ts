import type { SearchMissing, SearchResponse, SearchResult } from '../../../shared/api/search.js';
import { SEARCH_RESULTS_PER_KIND } from '../../../shared/api/search.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import type { CrmClient } from '../../peers/crm.js';
import { PeerError } from '../../peers/peer-error.js';
import { describePeerFailure } from '../../peers/peer-failure.js';
import type { LedgerPostFound } from '../area.js';
import { searchCrm, type CrmFound } from './crm-search.js';
import { holdsText, namesEpisode, readQuery, type SearchQuery } from './query.js';
import {
  broadcastResult,
  crmPostResult,
  guestResult,
  ledgerPostResult,
  productionResult,
  takeResult,
} from './results.js';

/** What the bridge itself stores, from the areas that keep it (their offers); absent when the area does not run. */
export interface BridgeStores {
  takesNamed?: (text: string, limit: number) => RecorderTake[];
  postsContaining?: (text: string, limit: number) => LedgerPostFound[];
}

/** How many rows a store is asked for before the text confirms them (LIKE is looser than the rule). */
const STORE_SCAN = 200;

export async function runSearch(
  q: string,
  crm: CrmClient | null,
  stores: BridgeStores,
): Promise<Omit<SearchResponse, 'success'>> {
  const query = readQuery(q);
  const limit = SEARCH_RESULTS_PER_KIND;
  const missing: SearchMissing[] = [];
  let found: CrmFound | null = null;
  if (crm === null) {
    missing.push({
      kinds: ['production', 'guest', 'broadcast'],
      reason:
        'No CRM is configured (CRM_URL in Settings): productions, guests and broadcasts were not searched.',
    });
  } else {
    try {
      found = await searchCrm(crm, query, limit);
    } catch (error) {
      missing.push(crmMissing(error));
    }
  }
  const results: SearchResult[] = [];
  if (found) {
    results.push(...found.productions.map(productionResult));
    const productionOfGuest = new Map(
      found.productions.flatMap((p) =>
        typeof p.guestBookingId === 'string' ? [[p.guestBookingId, p.id] as const] : [],
      ),
    );
    results.push(...found.guests.map((guest) => guestResult(guest, productionOfGuest)));
  }
  results.push(...posts(query, found, stores, limit));
  results.push(...takes(query, stores, limit));
  if (found) results.push(...found.broadcasts.map(broadcastResult));
  return { q: query.text, episode: query.episode, results, missing };
}

/** The CRM's posts, then the ledger's that the CRM did not list (a post scheduled over the API, or all of them with the CRM down). */
function posts(
  query: SearchQuery,
  found: CrmFound | null,
  stores: BridgeStores,
  limit: number,
): SearchResult[] {
  const fromCrm = (found?.posts ?? []).map(crmPostResult);
  const known = new Set(fromCrm.map((post) => post.id));
  const fromLedger = (stores.postsContaining?.(query.text, STORE_SCAN) ?? [])
    .filter((post) => holdsText(post.post, query))
    .map(ledgerPostResult)
    .filter((post) => !known.has(post.id));
  return [...fromCrm, ...fromLedger].slice(0, limit);
}

/** Takes by name, or for an episode those whose name says its number. */
function takes(query: SearchQuery, stores: BridgeStores, limit: number): SearchResult[] {
  const find = stores.takesNamed;
  if (!find) return [];
  const byText = find(query.text, STORE_SCAN).filter((take) => holdsText(take.name, query));
  const byEpisode =
    query.episode === null
      ? []
      : find(String(query.episode), STORE_SCAN).filter((take) => namesEpisode(take.name, query.episode!));
  const seen = new Set<number>();
  return [...byText, ...byEpisode]
    .filter((take) => !seen.has(take.id) && seen.add(take.id))
    .sort((a, b) => b.id - a.id)
    .slice(0, limit)
    .map((take) => takeResult(take, take.contentProductionId));
}

const crmCauseWords: Record<string, string> = {
  unreachable: 'The CRM could not be reached',
  'no-answer': 'The CRM did not answer in time',
  throttled: 'The CRM asked the bridge to wait',
  'refused-key': "The CRM refused the bridge's key",
  refused: 'The CRM refused the search',
  failing: 'The CRM failed',
  unreadable: 'The CRM answered something the bridge could not read',
};

function crmMissing(error: unknown): SearchMissing {
  const peer = error instanceof PeerError ? describePeerFailure(error) : undefined;
  const words = (peer && crmCauseWords[peer.cause]) ?? 'The CRM could not be searched';
  return {
    kinds: ['production', 'guest', 'broadcast', 'post'],
    reason: `${words}: productions, guests, broadcasts and the CRM's posts were not searched; takes and the bridge's own posts were.`,
    ...(peer ? { peer } : {}),
  };
}
