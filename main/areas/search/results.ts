import type { SearchResult } from '../../../shared/api/search.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import type { CrmRecord } from '../../peers/crm.js';
import type { LedgerPostFound } from '../area.js';

/** Each found record as the dashboard lists it: a title, a line of context, the address that opens it. */

const text = (record: CrmRecord, attribute: string): string | null => {
  const value = record[attribute];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** "2026-12-12 15:00 UTC": shared with people elsewhere, so in UTC, as the dashboard says such times. */
function utc(iso: string | null): string | null {
  if (iso === null) return null;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const line = (...parts: Array<string | null>): string => parts.filter((part) => part !== null).join(' · ');

/** A long text cut at a word, for a title. */
function shortened(value: string, max = 90): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
}

const withParam = (page: string, name: string, id: string) => `#/${page}?${name}=${encodeURIComponent(id)}`;

export function productionResult(record: CrmRecord): SearchResult {
  return {
    kind: 'production',
    id: record.id,
    title: text(record, 'name') ?? record.id,
    context: line(text(record, 'contentType'), text(record, 'stage'), utc(text(record, 'scheduledDate'))),
    href: `#/productions/${encodeURIComponent(record.id)}`,
    productionId: record.id,
  };
}

export function guestResult(record: CrmRecord, productionOfGuest: ReadonlyMap<string, string>): SearchResult {
  const productionId = text(record, 'contentProductionId') ?? productionOfGuest.get(record.id) ?? null;
  return {
    kind: 'guest',
    id: record.id,
    title: text(record, 'name') ?? record.id,
    context: line(
      text(record, 'stage'),
      utc(text(record, 'scheduledDate')),
      text(record, 'contentProductionName'),
    ),
    href: withParam('guests', 'guest', record.id),
    productionId,
  };
}

export function crmPostResult(record: CrmRecord): SearchResult {
  return {
    kind: 'post',
    id: record.id,
    title: shortened(text(record, 'content') ?? text(record, 'name') ?? record.id),
    context: line(text(record, 'status'), text(record, 'platform'), utc(text(record, 'scheduledAt'))),
    href: withParam('posts', 'post', record.id),
    productionId: text(record, 'contentProductionId'),
  };
}

/** The ledger's words for its states, as the Posts page says them. */
const ledgerStates: Record<string, string> = {
  claimed: 'Sending',
  unknown: 'Outcome unknown',
  posted: 'Sent to the provider',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function ledgerPostResult(post: LedgerPostFound): SearchResult {
  const id = post.socialPostId ?? `ledger-${post.ledgerId}`;
  return {
    kind: 'post',
    id,
    title: shortened(post.post),
    context: line(
      ledgerStates[post.state] ?? post.state,
      post.platforms.join(', ') || null,
      utc(post.publishAt),
    ),
    href: withParam('posts', 'post', id),
    productionId: null,
  };
}

export function takeResult(take: RecorderTake, productionId: string | null): SearchResult {
  const minutes = take.durationS === null ? null : `${Math.max(1, Math.round(take.durationS / 60))} min`;
  return {
    kind: 'take',
    id: String(take.id),
    title: take.name,
    context: line(take.stoppedAt === null ? 'Recording' : 'Take', minutes, utc(take.startedAt)),
    href: withParam('recorder', 'take', String(take.id)),
    productionId,
  };
}

export function broadcastResult(record: CrmRecord): SearchResult {
  return {
    kind: 'broadcast',
    id: record.id,
    title: text(record, 'name') ?? record.id,
    context: line(
      text(record, 'status'),
      utc(text(record, 'scheduledAt')),
      text(record, 'contentProductionName'),
    ),
    href: withParam('broadcasts', 'broadcast', record.id),
    productionId: text(record, 'contentProductionId'),
  };
}
