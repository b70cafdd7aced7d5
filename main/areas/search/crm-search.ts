import type { CrmClient, CrmRecord, CrmWhere } from '../../peers/crm.js';
import { holdsText, namesEpisode, type SearchQuery } from './query.js';

/** What the CRM holds for a search, each kind confirmed against the text (the CRM's `contains` is loose). */
export interface CrmFound {
  productions: CrmRecord[];
  guests: CrmRecord[];
  posts: CrmRecord[];
  broadcasts: CrmRecord[];
}

/**
 * A page wider than the 20 shown: `#12` also finds `#120`, which the confirmation drops. EspoCRM
 * allows 200 a page; one page per entity keeps a search at 4 CRM reads (the issue allows 5).
 */
const CRM_PAGE = 60;

const text = (record: CrmRecord, attribute: string): string => {
  const value = record[attribute];
  return typeof value === 'string' ? value : '';
};

const contains = (attribute: string, value: string): CrmWhere => ({ type: 'contains', attribute, value });
const linkedTo = (ids: readonly string[], attribute = 'contentProductionId'): CrmWhere[] =>
  ids.length > 0 ? [{ type: 'in', attribute, value: [...ids] }] : [];
/** How an episode is spelled in names: "The Studio Hour #12", "Episode 12", "Ep 12". */
const episodeSpellings = (n: number): string[] => [`#${n}`, `episode ${n}`, `ep ${n}`, `ep. ${n}`];

/**
 * Productions by name (or episode number) first, then in parallel the guests, posts and broadcasts
 * found by their text or linked to those productions: 4 CRM reads. Throws the first read's
 * failure; a later read that fails throws too (the caller says what is missing).
 */
export async function searchCrm(crm: CrmClient, query: SearchQuery, limit: number): Promise<CrmFound> {
  const episodeNames = query.episode === null ? [] : episodeSpellings(query.episode);
  const byName = (record: CrmRecord, attribute = 'name') =>
    holdsText(text(record, attribute), query) ||
    (query.episode !== null && namesEpisode(text(record, attribute), query.episode));

  const productionPage = await crm.list('ContentProduction', {
    where: [{ type: 'or', value: [query.text, ...episodeNames].map((value) => contains('name', value)) }],
    orderBy: 'scheduledDate',
    order: 'desc',
    maxSize: CRM_PAGE,
  });
  const productions = productionPage.list.filter((record) => byName(record)).slice(0, limit);
  const productionIds = productions.map((record) => record.id);
  const guestIds = productions.map((record) => text(record, 'guestBookingId')).filter(Boolean);
  const linked = (record: CrmRecord) => productionIds.includes(text(record, 'contentProductionId'));

  const [guests, posts, broadcasts] = await Promise.all([
    crm.list('GuestBooking', {
      where: [
        {
          type: 'or',
          value: [contains('name', query.text), ...linkedTo(productionIds), ...linkedTo(guestIds, 'id')],
        },
      ],
      orderBy: 'scheduledDate',
      order: 'desc',
      maxSize: CRM_PAGE,
    }),
    crm.list('SocialPost', {
      where: [
        {
          type: 'or',
          value: [contains('content', query.text), contains('name', query.text), ...linkedTo(productionIds)],
        },
      ],
      orderBy: 'scheduledAt',
      order: 'desc',
      maxSize: CRM_PAGE,
    }),
    crm.list('StreamhostBroadcast', {
      where: [
        {
          type: 'or',
          value: [
            ...[query.text, ...episodeNames].map((value) => contains('name', value)),
            ...linkedTo(productionIds),
          ],
        },
      ],
      orderBy: 'scheduledAt',
      order: 'desc',
      maxSize: CRM_PAGE,
    }),
  ]);
  return {
    productions,
    guests: linkedFirst(
      guests.list.filter((r) => byName(r) || linked(r) || guestIds.includes(r.id)),
      (r) => linked(r) || guestIds.includes(r.id),
    ).slice(0, limit),
    posts: linkedFirst(
      posts.list.filter((r) => holdsText(text(r, 'content'), query) || byName(r) || linked(r)),
      linked,
    ).slice(0, limit),
    broadcasts: linkedFirst(
      broadcasts.list.filter((r) => byName(r) || linked(r)),
      linked,
    ).slice(0, limit),
  };
}

/** The records of the productions found come before those that only share the text, each group in its order. */
function linkedFirst(records: CrmRecord[], isLinked: (record: CrmRecord) => boolean): CrmRecord[] {
  return [...records.filter(isLinked), ...records.filter((record) => !isLinked(record))];
}
