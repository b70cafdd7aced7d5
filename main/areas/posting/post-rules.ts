import type * as PostRules from '../../../shared/post-rules.js';

let loading: Promise<typeof PostRules> | undefined;

/**
 * The posting rules (shared/post-rules.ts), loaded the first time a post is reviewed, not at the
 * bridge's start: they bring twitter-text and its core-js, about a quarter of the start's module
 * loading, for work no start needs. The area loads them in the background soon after the start.
 */
export function postRules(): Promise<typeof PostRules> {
  loading ??= import('../../../shared/post-rules.js');
  return loading;
}
