/**
 * Answers the dashboard asked for before its bundle ran (preload-start.ts, a tiny script of its
 * own that index.html loads next to the bundle): the bundle takes a few hundred milliseconds to
 * arrive, compile and render, and the Overview's GETs travel meanwhile. callApi takes each
 * answer once, for the same URL and key; anything else goes to the network as before.
 */
export interface PreloadedAnswer {
  /** The key the request carried; an answer for another key is never used. */
  key: string;
  /** `performance.now()` when it was asked. */
  askedAt: number;
  response: Promise<Response>;
}

/** URL (as callApi builds it: path and query) → the answer on its way. */
export type PreloadTable = Partial<Record<string, PreloadedAnswer>>;

declare global {
  interface Window {
    __studioBridgePreload?: PreloadTable;
  }
}

/** Older than this, an unused answer may no longer be what the bridge would say. */
export const PRELOAD_MAX_AGE_MS = 10_000;

/**
 * The answer asked in advance for this GET, at most once; undefined when there is none, it was
 * asked with another key, or it is too old. A preload that failed to reach the bridge is asked
 * again by the caller (`retry`), so a hiccup before the bundle ran costs no more than a request.
 */
export function takePreloaded(url: string, key: string | null, retry: () => Promise<Response>) {
  // Through globalThis: the unit tests run this without a DOM (and stub `window`).
  const table = (globalThis as { window?: { __studioBridgePreload?: PreloadTable } }).window
    ?.__studioBridgePreload;
  const answer = table?.[url];
  if (!table || !answer) return undefined;
  delete table[url];
  if (answer.key !== key || performance.now() - answer.askedAt > PRELOAD_MAX_AGE_MS) return undefined;
  return answer.response.catch(retry);
}
