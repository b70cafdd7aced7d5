import { describe, expect, it } from 'vitest';
import { hashOf, isPath, routeOfHash } from '../../../renderer/src/hash-route.js';
import { PAGE_PATHS } from '../../support/page-paths.js';

const pages = PAGE_PATHS.map((path) => ({ path }));

/** The dashboard's address (`#/page?search`) as its router reads it (renderer/src/hash-router.tsx). */
describe('hash routes', () => {
  it('read the page and the search from the fragment', () => {
    expect(routeOfHash('#/analytics?range=1y&platform=photogram')).toEqual({
      pathname: '/analytics',
      search: 'range=1y&platform=photogram',
    });
    expect(routeOfHash('#/posts')).toEqual({ pathname: '/posts', search: '' });
  });

  it('open the Overview without a fragment, or with an empty one', () => {
    for (const hash of ['', '#', '#/', '#//']) expect(routeOfHash(hash).pathname).toBe('/');
    expect(routeOfHash('#?x=1')).toEqual({ pathname: '/', search: 'x=1' });
  });

  it('take a typed address as the page it means: no leading slash, trailing or doubled slashes, any case', () => {
    expect(routeOfHash('#posts').pathname).toBe('/posts');
    expect(routeOfHash('#/posts/').pathname).toBe('/posts');
    expect(routeOfHash('#//guests//?a=b')).toEqual({ pathname: '/guests', search: 'a=b' });
    expect(isPath('/Posts/', '/posts')).toBe(true);
    expect(isPath('/postsx', '/posts')).toBe(false);
    expect(isPath('/posts/1', '/posts')).toBe(false);
  });

  it('write back what they read', () => {
    expect(hashOf('/analytics', 'range=30d')).toBe('#/analytics?range=30d');
    expect(hashOf('/')).toBe('#/');
    for (const page of pages) {
      const route = routeOfHash(hashOf(page.path, 'a=1'));
      expect(route).toEqual({ pathname: page.path, search: 'a=1' });
    }
  });

  it('match exactly one page for each page path, and none for an unknown one', () => {
    for (const page of pages) {
      expect(pages.filter((entry) => isPath(page.path, entry.path))).toEqual([page]);
    }
    expect(pages.filter((entry) => isPath('/nowhere', entry.path))).toEqual([]);
  });
});
