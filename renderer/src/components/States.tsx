import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../api/client.js';

/** Grey placeholder bars while a panel loads: the layout does not jump when data arrives. */
export function Skeleton({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <div className="skeleton" role="status" aria-label={label}>
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton-line" style={{ width: `${90 - ((index * 23) % 45)}%` }} />
      ))}
    </div>
  );
}

export function Spinner({ label }: { label?: string }) {
  return (
    <span className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      {label ? <span>{label}</span> : <span className="visually-hidden">Loading</span>}
    </span>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children ? <div className="empty-text">{children}</div> : null}
    </div>
  );
}

/** What failed, the bridge's message and code, and a way to try again. */
export function ErrorState({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
}) {
  const code = error instanceof ApiError ? error.code : undefined;
  const status = error instanceof ApiError && error.status > 0 ? error.status : undefined;
  return (
    <div className="error-state" role="alert">
      <div className="error-body">
        <p className="error-title">{title}</p>
        <p className="error-message">{errorMessage(error)}</p>
        {code || status ? (
          <p className="error-code">
            {[status ? `HTTP ${status}` : null, code]
              .filter((part) => part !== null && part !== undefined)
              .join(' · ')}
          </p>
        ) : null}
      </div>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
