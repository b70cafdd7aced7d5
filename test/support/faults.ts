import type { FaultSpec } from '../../main/sandbox/common/faults.js';

/**
 * The posting provider's own 429 (its body as the provider words it) with a Retry-After of
 * `retryAfterS`, on the next `times` requests matching `method` and `pathPrefix`: a fault for
 * `postsvc.faults.injectFault`, or the body of a POST to its /__sandbox/faults.
 */
export function providerThrottle(match: {
  method: string;
  pathPrefix: string;
  retryAfterS: number;
  times: number;
}): FaultSpec {
  const { retryAfterS, ...where } = match;
  return {
    ...where,
    status: 429,
    headers: { 'Retry-After': String(retryAfterS) },
    body: { status: 'error', code: 429, message: 'Too many requests' },
  };
}
