import { useState } from 'react';
import {
  emailOfStage,
  guestStages,
  workflowOfStage,
  workflowStages,
  type GuestStage,
  type WorkflowStage,
} from '../../../shared/api/guests.js';
import { ActionError, ErrorState, Skeleton, Spinner } from '../components/States.js';
import { useMoveStage, useStageEmailPreview } from './api.js';
import { missingText } from './holds-format.js';

const isWorkflowStage = (stage: string): stage is WorkflowStage =>
  (workflowStages as readonly string[]).includes(stage);

/**
 * Moving a guest in the CRM, confirmed once: the operator sees what the move starts and, for a
 * stage that sends an email, the email as it would go out now and the values it would lack
 * (a workflow with missing values is held by the bridge, DESIGN §6.8).
 */
export function MoveStage({
  guestId,
  guestName,
  current,
}: {
  guestId: string;
  guestName: string;
  current: string;
}) {
  const move = useMoveStage();
  const [stage, setStage] = useState<GuestStage | ''>('');
  const [confirming, setConfirming] = useState<GuestStage | null>(null);
  const confirm = () => {
    if (confirming === null) return;
    move.mutate(
      { id: guestId, stage: confirming },
      {
        onSuccess: () => {
          setStage('');
          setConfirming(null);
        },
      },
    );
  };
  return (
    <div className="guests-move">
      <label className="field-label" htmlFor="guest-move-stage">
        Move in the CRM to
      </label>
      <div className="input-row">
        <select
          id="guest-move-stage"
          className="input"
          value={stage}
          onChange={(event) => {
            setStage(event.target.value as GuestStage | '');
            setConfirming(null);
            move.reset();
          }}
        >
          <option value="">Choose a stage…</option>
          {guestStages.map((s) => (
            <option key={s} value={s} disabled={s === current}>
              {s}
              {isWorkflowStage(s) ? ` (starts ${workflowOfStage[s]} once)` : ''}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-primary"
          disabled={stage === '' || confirming !== null}
          onClick={() => stage !== '' && setConfirming(stage)}
        >
          Move…
        </button>
      </div>
      {confirming !== null ? (
        <MoveConfirmation
          guestId={guestId}
          guestName={guestName}
          stage={confirming}
          pending={move.isPending}
          onConfirm={confirm}
          onCancel={() => {
            setConfirming(null);
            move.reset();
          }}
        />
      ) : null}
      {move.isError ? <ActionError className="field-problem" error={move.error} /> : null}
      {move.isSuccess ? (
        <p className="field-success" role="status">
          {move.data.changed ? `Moved to ${move.data.guest.stage}` : `Already at ${move.data.guest.stage}`}
          {move.data.hold
            ? `: ${move.data.hold.workflow} is held, waiting for ${missingText(move.data.hold.missing)}.`
            : move.data.run
              ? `: ${move.data.run.workflow} queued.`
              : '.'}
        </p>
      ) : null}
    </div>
  );
}

function MoveConfirmation({
  guestId,
  guestName,
  stage,
  pending,
  onConfirm,
  onCancel,
}: {
  guestId: string;
  guestName: string;
  stage: GuestStage;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const moment = emailOfStage[stage] ?? null;
  const preview = useStageEmailPreview(guestId, moment);
  const workflow = isWorkflowStage(stage) ? workflowOfStage[stage] : null;
  const missing = preview.data?.missingValues ?? [];
  return (
    <div className="guests-move-confirm" role="alertdialog" aria-label={`Move ${guestName} to ${stage}`}>
      <p className="guests-move-what">
        Move <strong>{guestName}</strong> to <strong>{stage}</strong> in the CRM.{' '}
        {workflow === null
          ? 'No workflow runs for this stage.'
          : moment === null
            ? `This starts ${workflow} once; it sends no email.`
            : `This starts ${workflow} once, which sends this email to the guest:`}
      </p>
      {moment === null ? null : preview.isPending ? (
        <Skeleton lines={4} label="Rendering the email" />
      ) : preview.isError ? (
        <ErrorState
          title="Couldn't render the email"
          error={preview.error}
          onRetry={() => void preview.refetch()}
        />
      ) : (
        <div className="guests-mail" data-testid="move-email">
          <div className="guests-mail-head">
            <span className="muted small">To</span> <span>{preview.data.to ?? 'no email address'}</span>
            <span className="muted small">Subject</span> <strong>{preview.data.subject}</strong>
          </div>
          <div className="guests-mail-body">{preview.data.body}</div>
        </div>
      )}
      {missing.length > 0 && workflow !== null ? (
        <p className="guests-missing" data-testid="move-missing">
          <strong>Missing: {missingText(missing)}.</strong> These would be empty in the email, so {workflow}{' '}
          will wait on the guest until the CRM has them. You can also send it anyway from the guest.
        </p>
      ) : null}
      <div className="guests-move-actions">
        <button
          type="button"
          className="button button-primary"
          // The operator confirms having seen the email: not before it is rendered.
          disabled={pending || (moment !== null && preview.isPending)}
          onClick={onConfirm}
        >
          {pending ? (
            <Spinner label="Moving…" />
          ) : missing.length > 0 && workflow !== null ? (
            `Move and hold ${workflow}`
          ) : (
            `Move to ${stage}`
          )}
        </button>
        <button type="button" className="button button-ghost" disabled={pending} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
