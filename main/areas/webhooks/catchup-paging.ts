/**
 * The pure rules of DESIGN §6.9's listing: keyed paging by `modifiedAt` (offset paging skips
 * records modified during the scan), offset only within one second a whole page shares, and
 * where the next catch-up starts.
 */

export const CATCHUP_PAGE = 200;
/** Listings start this far before the mark: records saved in the same second as the mark, clock skew. */
export const MARK_OVERLAP_MS = 2 * 60_000;
/** EspoCRM's four tries, 10 min apart: an unknown record this recent may still come by webhook. */
export const DELIVERY_WINDOW_MS = 35 * 60_000;
/** An existing data dir with no mark starts this long before its last delivery. */
export const SEED_BEFORE_LAST_DELIVERY_MS = 45 * 60_000;

export interface PageCursor {
  /** `modifiedAt ≥ from` (ISO). */
  from: string;
  offset: number;
}

/**
 * The cursor after a full page: from its last `modifiedAt` (records of that second listed again
 * are skipped by id), or, when the whole page shares the cursor's second, the next offset in it.
 */
export function nextCursor(cursor: PageCursor, page: ReadonlyArray<{ modifiedAt: string }>): PageCursor {
  const last = page.at(-1)?.modifiedAt ?? cursor.from;
  if (Date.parse(last) <= Date.parse(cursor.from))
    return { from: cursor.from, offset: cursor.offset + page.length };
  return { from: last, offset: 0 };
}

/**
 * The new mark (the highest `modifiedAt` handled) and where the next listing starts: the mark
 * minus the overlap, but never past a record left to its webhooks (it must be listed again).
 */
export function nextMark(
  previous: string | null,
  highestHandled: string | null,
  earliestDeferred: string | null,
): { mark: string | null; listFrom: string | null } {
  const mark = latest(previous, highestHandled);
  let listFrom = mark === null ? null : new Date(Date.parse(mark) - MARK_OVERLAP_MS).toISOString();
  if (earliestDeferred !== null && (listFrom === null || Date.parse(earliestDeferred) < Date.parse(listFrom)))
    listFrom = earliestDeferred;
  return { mark, listFrom };
}

function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

/** More than 5 and more than 10 % of an entity's tracked records gone at once: ask, cancel nothing. */
export function isMassDisappearance(vanished: number, tracked: number): boolean {
  return vanished > 5 && vanished > tracked * 0.1;
}
