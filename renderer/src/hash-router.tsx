import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { hashOf, isPath, routeOfHash, type HashRoute } from './hash-route.js';

/**
 * The dashboard's router: nine pages at fixed paths under the URL fragment (shell/routes.ts), links,
 * the current route and its search params. Written here rather than taken from React Router,
 * whose general matching and history layer cost the Overview ~15 ms of the main thread on every
 * start (profiled in Chromium, docs/benchmarks.md) for pages that have no parameters.
 *
 * Links are plain `<a href="#/...">`: the browser changes the fragment itself (so a middle click
 * opens a tab and Back works), and every route change — a click, Back, a typed address, or
 * `setSearchParams` — comes to the hooks through `hashchange` or the notify below.
 */

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    window.addEventListener('hashchange', notify);
    window.addEventListener('popstate', notify);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.removeEventListener('hashchange', notify);
      window.removeEventListener('popstate', notify);
    }
  };
}

function notify(): void {
  for (const listener of listeners) listener();
}

const currentHash = () => window.location.hash;

/** The route the address bar shows now; re-renders when it changes. */
export function useRoute(): HashRoute {
  const hash = useSyncExternalStore(subscribe, currentHash);
  return useMemo(() => routeOfHash(hash), [hash]);
}

/** Goes to `pathname?search`; `replace` keeps Back from returning to the route left. */
export function navigate(pathname: string, search = '', { replace = false } = {}): void {
  const hash = hashOf(pathname, search);
  if (hash === window.location.hash) return;
  if (replace) window.history.replaceState(window.history.state, '', hash);
  else window.history.pushState(window.history.state, '', hash);
  notify(); // the History API fires no hashchange
}

/** The current route's search params, and a setter that keeps the page (the address's `?...`). */
export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams, options?: { replace?: boolean }) => void,
] {
  const { pathname, search } = useRoute();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: URLSearchParams, options?: { replace?: boolean }) => navigate(pathname, next.toString(), options),
    [pathname],
  );
  return [params, setParams];
}

interface LinkProps {
  to: string;
  className?: string;
  children: ReactNode;
  onClick?: () => void;
}

export function Link({ to, className, children, onClick }: LinkProps) {
  return (
    <a href={hashOf(to)} className={className} onClick={onClick}>
      {children}
    </a>
  );
}

/**
 * A link that says it is the current page (`aria-current="page"` and the `active` class), or the
 * section the current page is in (`within`, e.g. Productions on one production's page:
 * `aria-current="true"`, the same `active` class).
 */
export function NavLink({ to, className, children, onClick, within }: LinkProps & { within?: boolean }) {
  const exact = isPath(useRoute().pathname, to);
  const active = exact || within === true;
  return (
    <a
      href={hashOf(to)}
      className={active ? `${className ?? ''} active`.trim() : className}
      aria-current={exact ? 'page' : active ? 'true' : undefined}
      onClick={onClick}
    >
      {children}
    </a>
  );
}
