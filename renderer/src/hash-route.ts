/**
 * Where the dashboard is, read from the URL fragment: `#/analytics?range=1y` is the page
 * `/analytics` with the search `range=1y`. Hash routing lets the same build work from the bridge
 * at `/` and from file:// in the desktop shell. Pure: the hooks are in hash-router.tsx.
 */
export interface HashRoute {
  /** Always starts with `/`; no trailing slash but the root's. */
  pathname: string;
  /** Without the `?`; empty when there is none. */
  search: string;
}

export function routeOfHash(hash: string): HashRoute {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  const query = fragment.indexOf('?');
  const path = query === -1 ? fragment : fragment.slice(0, query);
  const search = query === -1 ? '' : fragment.slice(query + 1);
  const trimmed = `/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  return { pathname: trimmed, search };
}

/** The fragment for a route: `hashOf('/analytics', 'range=1y')` is `#/analytics?range=1y`. */
export function hashOf(pathname: string, search = ''): string {
  return `#${pathname}${search ? `?${search}` : ''}`;
}

/** Whether `pathname` is the page at `path`; case and a trailing slash do not matter, as typed addresses vary. */
export function isPath(pathname: string, path: string): boolean {
  return routeOfHash(pathname).pathname.toLowerCase() === routeOfHash(path).pathname.toLowerCase();
}
