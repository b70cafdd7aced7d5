import { PeerError } from '../../peers/peer-error.js';
import { describePeerFailure } from '../../peers/peer-failure.js';

/** Why the CRM could not give a part of the thread, in the operator's words. */
export function crmFailureWords(error: unknown): string {
  const failure = error instanceof PeerError ? describePeerFailure(error) : undefined;
  switch (failure?.cause) {
    case 'unreachable':
      return 'the CRM could not be reached';
    case 'no-answer':
      return 'the CRM did not answer in time';
    case 'throttled':
      return 'the CRM is limiting requests; try again in a minute';
    case 'refused-key':
      return 'the CRM refused the bridge’s key (Settings → CRM)';
    case 'failing':
      return `the CRM is failing (it answered ${failure.status ?? 'an error'})`;
    case 'unreadable':
      return 'the CRM answered something the bridge cannot read';
    case 'refused':
      return `the CRM refused the request (${failure.status ?? 'an error'})`;
    default:
      return `the CRM could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}
