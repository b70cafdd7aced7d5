/**
 * The start-up link `http://127.0.0.1:4100/#key=...` (main/cli.ts) carries the key in the URL
 * fragment, which browsers never send to the server. The dashboard takes it (when the page opens,
 * and when the link is pasted into an open tab) and replaces the address (and its history entry)
 * with the Overview's, so the key is not left on screen or in Back.
 */
export function takeKeyFromFragment(): string | null {
  const match = /^#key=([^&]+)$/.exec(window.location.hash);
  if (!match?.[1]) return null;
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/`);
  // The History API fires no event: the router (hash-router.tsx) learns the new address from this.
  window.dispatchEvent(new PopStateEvent('popstate'));
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null; // malformed escape: the key screen asks instead
  }
}
