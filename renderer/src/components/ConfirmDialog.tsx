import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { ErrorText, Spinner } from './States.js';

export interface ConfirmDialogProps {
  /** The question, naming what and where: "Publish 'Ep 12' to Videosite now?". Also the dialog's name. */
  title: string;
  /** What follows from it, e.g. "It will be public." */
  children?: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs. */
  pendingLabel?: string;
  pending?: boolean;
  /** The action's failure, shown in the dialog so the operator can try again or cancel. */
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  /** The action destroys something live or public (delete a live broadcast or post): a red button. */
  destructive?: boolean;
}

/**
 * The one confirmation step before anything reaches the public or cannot be undone (DESIGN §6.8:
 * post now, publish, retry a publish, delete a live broadcast). A modal <dialog>: focus stays
 * inside, Escape cancels, and Cancel has the focus first so Enter does not publish by accident.
 * Render it only while asking. It is rendered into <body>: opened from a table cell it must not
 * inherit the cell's layout (a `nowrap` cell pushed its buttons out of view).
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending = false,
  error,
  onConfirm,
  onCancel,
  destructive = false,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return createPortal(
    <dialog
      ref={ref}
      className="confirm"
      role="alertdialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!pending) onCancel();
      }}
    >
      <h2 className="confirm-title" id={titleId}>
        {title}
      </h2>
      {children ? <div className="confirm-body">{children}</div> : null}
      {error ? (
        <p className="field-error" role="alert">
          <ErrorText error={error} />
        </p>
      ) : null}
      <div className="confirm-actions">
        <button type="button" className="button button-ghost" autoFocus disabled={pending} onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={`button ${destructive ? 'button-danger' : 'button-primary'} confirm-go`}
          disabled={pending}
          onClick={onConfirm}
        >
          {pending ? <Spinner label={pendingLabel ?? 'Working…'} /> : confirmLabel}
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
