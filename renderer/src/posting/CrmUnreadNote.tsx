import type { PeerFailure } from '../../../shared/api/contract.js';
import { peerFailureSentence } from '../api/words.js';

/**
 * The note above a post list read without the CRM (the ledger alone): why, in words (issue #30),
 * with the bridge's own reason in small print for whoever reads logs.
 */
export function CrmUnreadNote({
  crmError,
  crmFailure,
}: {
  crmError: string | null;
  crmFailure?: PeerFailure | null | undefined;
}) {
  if (!crmError) return null;
  const why = crmFailure ? peerFailureSentence(crmFailure) : null;
  return (
    <p className="banner banner-warn" role="status" data-testid="crm-unread-note">
      Showing the bridge&apos;s own posts only, not the CRM&apos;s.{' '}
      {why ??
        (crmError === 'no CRM configured' ? 'No CRM is connected (Settings).' : 'The CRM could not be read.')}
      {why || crmError !== 'no CRM configured' ? <span className="mono small"> ({crmError})</span> : null}
    </p>
  );
}
