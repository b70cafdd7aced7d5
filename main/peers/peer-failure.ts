import { peerNames, type PeerFailure } from '../../shared/api/contract.js';
import { PeerError } from './peer-error.js';

/**
 * Why a peer failed, from the PeerError the HTTP client raised (issue #30): what the operator
 * sees in words depends on it ("could not be reached" asks for something else than "is
 * limiting requests"). Pure; the error envelope carries it as `peer`.
 */
export function describePeerFailure(error: PeerError): PeerFailure | undefined {
  const name = peerNames.find((known) => known === error.peer);
  if (name === undefined) return undefined;
  const status = error.details.status;
  const answered = status === undefined ? {} : { status };
  switch (error.kind) {
    case 'network':
      return { name, cause: 'unreachable' };
    case 'timeout':
      return { name, cause: 'no-answer' };
    case 'invalid-body':
      return { name, cause: 'unreadable', ...answered };
    case 'refused-key':
      return { name, cause: 'refused-key' };
    case 'http':
      if (status === 429) {
        const retryAfterS = error.details.retryAfterS;
        return { name, cause: 'throttled', status, ...(retryAfterS === undefined ? {} : { retryAfterS }) };
      }
      if (status === 401 || status === 403) return { name, cause: 'refused-key', status };
      if (status !== undefined && status >= 500) return { name, cause: 'failing', status };
      // A redirect is not followed (issue #35.3): the address points elsewhere, so every call fails,
      // unlike a 4xx about the request itself.
      if (status !== undefined && status >= 300 && status < 400) return { name, cause: 'unreadable', status };
      return { name, cause: 'refused', ...answered };
  }
}

/** How deep a chain of `cause`s is followed: areas wrap a PeerError once or twice. */
const MAX_CAUSE_DEPTH = 5;

/** The first PeerError in an error's `cause` chain, described; undefined when no peer is involved. */
export function peerFailureIn(error: unknown): PeerFailure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    if (current instanceof PeerError) return describePeerFailure(current);
    current = current.cause;
  }
  return undefined;
}
