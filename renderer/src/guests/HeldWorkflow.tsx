import { useState } from 'react';
import type { GuestHold } from '../../../shared/api/guests.js';
import { ActionError, Spinner } from '../components/States.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { useCheckHold, useSendHeldAnyway } from './api.js';
import { missingText, waitingText } from './holds-format.js';

/**
 * A guest's workflow held because its email would render empty values (DESIGN §6.8). The bridge
 * re-checks it on every CRM event for the guest or its content; the operator can check now, or
 * send it anyway after one explicit confirmation.
 */
export function HeldWorkflow({ guestId, hold }: { guestId: string; hold: GuestHold }) {
  const now = useNow(30_000);
  const check = useCheckHold();
  const send = useSendHeldAnyway();
  const [confirming, setConfirming] = useState(false);
  const busy = check.isPending || send.isPending;
  const failure = check.error ?? send.error;
  return (
    <div
      className="banner banner-warn guests-hold"
      role="region"
      aria-label="Held workflow"
      data-testid="guest-hold"
    >
      <div className="guests-hold-text">
        <strong>
          {hold.workflow} is waiting for: {waitingText(hold)}
        </strong>
        <span className="banner-detail">
          {hold.reason === 'late'
            ? `Not started: the bridge found this stage change late, ${hold.note ?? 'after its time'}. It never starts by itself: send it anyway if it should still go.`
            : `Not started, because the ${hold.moment ?? 'stage'} email would go out with these empty. It starts by itself once the CRM has them.`}{' '}
          Held <span title={formatDateTime(hold.createdAt)}>{formatRelative(hold.createdAt, now)}</span>, last
          checked <span title={formatDateTime(hold.checkedAt)}>{formatRelative(hold.checkedAt, now)}</span>.
        </span>
        {check.isSuccess && check.data.hold.status === 'waiting' ? (
          <span className="banner-detail" role="status">
            Checked just now: still missing {missingText(check.data.hold.missing)}.
          </span>
        ) : null}
        {failure ? <ActionError className="field-problem small" error={failure} /> : null}
      </div>
      {confirming ? (
        <div className="guests-hold-actions" role="alertdialog" aria-label="Send anyway">
          <span className="small">
            {hold.reason === 'late'
              ? 'Send it now, late?'
              : `Send it with ${missingText(hold.missing)} empty?`}
          </span>
          <button
            type="button"
            className="button button-small guests-danger"
            disabled={busy}
            onClick={() =>
              send.mutate({ id: guestId, stage: hold.stage }, { onSettled: () => setConfirming(false) })
            }
          >
            {send.isPending ? <Spinner label="Sending…" /> : 'Yes, send anyway'}
          </button>
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
        </div>
      ) : (
        <div className="guests-hold-actions">
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() => check.mutate({ id: guestId, stage: hold.stage })}
          >
            {check.isPending ? <Spinner label="Checking…" /> : 'Check again'}
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            Send anyway…
          </button>
        </div>
      )}
    </div>
  );
}
