/**
 * Which URLs the desktop window may go to (DESIGN §9). Pure: no Electron imports.
 * The window only ever shows the bridge's own origin; other http(s) links open in the OS browser;
 * everything else (file:, javascript:, data:, custom schemes) is refused.
 */
export type NavigationVerdict = 'allow' | 'external' | 'deny';

/** `http://127.0.0.1:4100` for `http://127.0.0.1:4100/settings`; undefined for unparsable or opaque URLs. */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.origin === 'null' ? undefined : parsed.origin;
}

export function isBridgeUrl(url: string, bridgeOrigin: string): boolean {
  return originOf(url) === bridgeOrigin;
}

export function classifyNavigation(url: string, bridgeOrigin: string): NavigationVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'deny';
  }
  if (parsed.origin === bridgeOrigin) return 'allow';
  const web = parsed.protocol === 'https:' || parsed.protocol === 'http:';
  // Credentials in a link are a phishing pattern, not something the dashboard produces.
  return web && parsed.username === '' && parsed.password === '' ? 'external' : 'deny';
}

/**
 * Browser permissions the dashboard may use: writing the clipboard ("copy API key", "copy webhook URL"),
 * and only from the bridge's origin. Camera, notifications, geolocation, ... are refused.
 */
const allowedPermissions: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(
  permission: string,
  requestingUrl: string,
  bridgeOrigin: string,
): boolean {
  return allowedPermissions.has(permission) && isBridgeUrl(requestingUrl, bridgeOrigin);
}
