/**
 * The dashboard's page paths (`#/posts` is `/posts`), in navigation order: renderer/src/shell/routes.ts
 * lists the pages themselves, with their components, which only load in a browser.
 */
export const PAGE_PATHS = [
  '/',
  '/productions',
  '/posts',
  '/broadcasts',
  '/recorder',
  '/analytics',
  '/guests',
  '/clips',
  '/activity',
  '/settings',
] as const;
