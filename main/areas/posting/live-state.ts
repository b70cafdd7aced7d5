import type { PlatformKey } from '../../../shared/platforms.js';
import type { LedgerRow } from './repo.js';

/** The platforms the ledger already knows the row's post is out on (never deleted unasked, never moved). */
export function knownLive(row: LedgerRow): PlatformKey[] {
  const states = row.platform_states;
  if (states) {
    const live = row.platforms.filter((platform) => states[platform]?.status === 'published');
    if (live.length > 0) return live;
  }
  return row.provider_status === 'published' ? [...row.platforms] : [];
}

/** Where the row's post is out, per platform, as far as the ledger knows. */
export function postUrlsOf(row: LedgerRow): string[] {
  return row.platforms.flatMap((platform) => {
    const url = row.platform_states?.[platform]?.postUrl;
    return url ? [url] : [];
  });
}
