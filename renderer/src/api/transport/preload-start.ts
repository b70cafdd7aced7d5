import type { PreloadTable } from './preloaded.js';
import type { API_KEY_STORAGE_KEY } from '../storage-keys.js';

/**
 * The dashboard's second entry (vite.config.ts): a script of a few hundred bytes that runs as soon
 * as it arrives, while the bundle (React, router, zod: ~140 KB gzip) is still on its way, and
 * asks the bridge for what the first screen shows. callApi takes the answers (preloaded.ts).
 *
 * Imports nothing that runs (a chunk shared with the bundle would cost it a round trip). The URLs
 * are the ones callApi builds for the same queries (path, then the query string of the defined
 * values); a URL nobody takes is left unused, which test/e2e/overview-load.spec.ts catches.
 */

/** storage-keys.ts's name, spelled again (see above); the compiler keeps the two the same. */
const storageKey: typeof API_KEY_STORAGE_KEY = 'studioBridge.apiKey';

/**
 * Every page's header: bridge status (also the Overview's first panels), and the broadcast list
 * behind ON AIR, asked last: a browser opens six connections to the bridge, the bundle and the
 * stylesheet hold two, and what the Overview waits for should not queue behind ON AIR.
 */
const shellFirst = ['/health'];
const shellLast = ['/api/broadcasts'];
/** The Overview's panels: recorder filename, held workflows, the live feed's last 12 events. */
const overviewUrls = ['/api/recorder/filename', '/api/guests/holds', '/api/activity?limit=12'];

/** The key and base URL the dashboard will use (key-store.ts, desktop.ts), read without parsing libraries. */
function connection(): { base: string; key: string } | null {
  // The desktop window's preload (shared/desktop-api.ts); desktop.ts parses it the same way.
  const desktop: unknown = Reflect.get(window, 'studioBridge');
  if (typeof desktop === 'object' && desktop !== null) {
    const { apiKey, bridgeUrl } = desktop as Record<string, unknown>;
    if (typeof apiKey === 'string' && apiKey && typeof bridgeUrl === 'string' && bridgeUrl) {
      return { base: bridgeUrl.replace(/\/+$/, ''), key: apiKey };
    }
  }
  const fromLink = /^#key=([^&]+)$/.exec(window.location.hash)?.[1];
  try {
    const key = fromLink ? decodeURIComponent(fromLink) : window.localStorage.getItem(storageKey);
    return key ? { base: '', key } : null;
  } catch {
    return null; // storage disabled or a malformed link: the dashboard asks for the key itself
  }
}

/** The Overview is the page at `#/`, and the page a start-up link (`#key=...`) opens. */
function opensOverview(hash: string): boolean {
  return hash === '' || hash === '#' || hash === '#/' || hash.startsWith('#key=');
}

function start(): void {
  const found = connection();
  if (!found) return;
  const page = opensOverview(window.location.hash) ? overviewUrls : [];
  const urls = [...shellFirst, ...page, ...shellLast];
  const table: PreloadTable = {};
  for (const url of urls) {
    table[url] = {
      key: found.key,
      askedAt: performance.now(),
      response: fetch(`${found.base}${url}`, {
        headers: { Accept: 'application/json', Authorization: `Bearer ${found.key}` },
      }),
    };
    // Unhandled rejections are the taker's business (it asks again); none is reported twice.
    table[url].response.catch(() => undefined);
  }
  window.__studioBridgePreload = table;
}

start();
