import { postingPlatforms, type PlatformKey } from '../../shared/platforms.js';
import type { ProviderPlatformError } from './postsvc-wire.js';

/** A platform key as a person reads it ("microblog" → "Microblog"); an unknown key as it came. */
function platformName(key: string): string {
  return Object.hasOwn(postingPlatforms, key) ? postingPlatforms[key as PlatformKey].label : key;
}

/**
 * A partial result in words, per platform (issue #30.1): "Posted on Microblog. Photogram refused
 * it: Page token expired." Never the provider's post id or an API path: the id goes in the
 * error's details, for integrators.
 */
export function partialResultWords(
  accepted: readonly string[],
  refused: readonly ProviderPlatformError[],
): string {
  const names = accepted.map(platformName);
  const posted = names.length > 0 ? `Posted on ${joinNames(names)}.` : '';
  const reasons = refused.map((failure) => {
    const who = failure.platform ? platformName(failure.platform) : 'A platform';
    return failure.message ? `${who} refused it: ${withStop(failure.message)}` : `${who} refused it.`;
  });
  return [posted, ...reasons].filter(Boolean).join(' ');
}

function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function withStop(message: string): string {
  const trimmed = message.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
