import { useState, type FormEvent } from 'react';
import type { RecorderMark } from '../../../shared/api/recorder.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { ErrorText, Spinner } from '../components/States.js';
import { formatDateTime } from '../format.js';
import { useDeleteMark, useRenameMark } from './api.js';

/**
 * One mark of a take (or with none): its time and label, renamed in place and deleted after asking
 * (issue #41.2). Exports and later clip analyses read the marks as they are now.
 */
export function MarkItem({ mark, time }: { mark: RecorderMark; time: string }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const rename = useRenameMark();
  const remove = useDeleteMark();
  const name = mark.label ?? 'mark';
  return (
    <li className="mark" data-testid="mark" title={formatDateTime(mark.at)}>
      <span className="mark-time mono">{time}</span>
      {editing ? (
        <RenameForm
          mark={mark}
          pending={rename.isPending}
          onSave={(label) =>
            rename.mutate(
              { markId: mark.id, label, previousLabel: mark.label },
              { onSuccess: () => setEditing(false) },
            )
          }
          onCancel={() => {
            rename.reset();
            setEditing(false);
          }}
        />
      ) : (
        <>
          <span className="mark-label">{name}</span>
          <span className="mark-actions">
            <button
              type="button"
              className="link-button mark-action"
              title={`Rename the mark at ${time}`}
              onClick={() => {
                rename.reset();
                setEditing(true);
              }}
            >
              Rename
            </button>
            <button
              type="button"
              className="link-button mark-action mark-delete"
              title={`Delete the mark at ${time}`}
              onClick={() => {
                remove.reset();
                setConfirming(true);
              }}
            >
              Delete
            </button>
          </span>
        </>
      )}
      {rename.isError ? (
        <span className="field-error small mark-error" role="alert">
          Not renamed: <ErrorText error={rename.error} />
        </span>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Delete the mark at ${time}?`}
          confirmLabel="Delete the mark"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          error={remove.isError ? remove.error : undefined}
          onConfirm={() => remove.mutate(mark.id, { onSuccess: () => setConfirming(false) })}
          onCancel={() => setConfirming(false)}
        >
          <p>
            “{name}” goes: it no longer pins a clip when the take is analysed again, and editor exports leave
            it out. Clips already suggested keep it.
          </p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}

function RenameForm({
  mark,
  pending,
  onSave,
  onCancel,
}: {
  mark: RecorderMark;
  pending: boolean;
  onSave: (label: string) => void;
  onCancel: () => void;
}) {
  const [label, setLabel] = useState(mark.label ?? '');
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSave(label.trim());
  }
  return (
    <form className="mark-rename" onSubmit={submit}>
      <input
        className="input mark-rename-input"
        aria-label="New label"
        value={label}
        maxLength={200}
        placeholder="no label"
        autoComplete="off"
        // Opened by the operator's click on Rename: the field is where they type next.
        autoFocus
        onChange={(event) => setLabel(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
      />
      <button type="submit" className="button button-small button-primary" disabled={pending}>
        {pending ? <Spinner label="Saving…" /> : 'Save'}
      </button>
      <button type="button" className="button button-small" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
