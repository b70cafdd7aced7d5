import type { ReactNode } from 'react';
import { ApiError, bridgeMessage, errorMessage } from '../api/transport/client.js';
import { adviceFor, peerFailurePast, peerFailureSentence } from '../api/words.js';
import { usePeerBack } from './use-peer-back.js';

/** What happened in words: the peer's failure by its cause where a peer is the reason, else by the code. */
function adviceOf(error: unknown): string {
  const peer = error instanceof ApiError && error.peer ? peerFailureSentence(error.peer) : null;
  if (peer) return peer;
  return adviceFor(
    error instanceof ApiError ? error.code : undefined,
    error instanceof ApiError ? error.status : -1,
  );
}

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

/**
 * What failed, in words: what went wrong and what to do (by the error's code), then the
 * bridge’s own message, the HTTP status and the code behind Details, and a way to try again.
 */
export function ErrorState({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
}) {
  return (
    <div className="error-state" role="alert">
      <div className="error-body">
        <p className="error-title">{title}</p>
        <p className="error-message">{adviceOf(error)}</p>
        <ErrorDetails error={error} />
      </div>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

/** The bridge's own message (it names the call and path that failed), the HTTP status and the code. */
function detailsOf(error: unknown): string {
  const code = error instanceof ApiError ? error.code : undefined;
  const status = error instanceof ApiError ? error.status : -1;
  const message = bridgeMessage(error);
  const http = status > 0 && !message.includes(`HTTP ${status}`) ? `HTTP ${status}` : null;
  return [message, http, code].filter((part) => part !== null && part !== undefined).join(' · ');
}

/**
 * Codes, ids and paths behind a "Details" disclosure (issue #40.4): the operator reads words;
 * whoever reads logs opens it.
 */
export function Details({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <details className="details-disclosure">
      <summary>Details</summary>
      <span className="details-body mono small" data-testid={testId}>
        {children}
      </span>
    </details>
  );
}

function ErrorDetails({ error }: { error: unknown }) {
  return <Details testId="error-details">{detailsOf(error)}</Details>;
}

/** Codes whose message already says what to change: no advice sentence after it. */
const selfExplaining = new Set(['VALIDATION_ERROR', 'INVALID_DATE', 'INVALID_MEDIA', 'RTMP_INVALID']);

/**
 * An action's failure inline (a button's error line): the message in words, what to do where
 * the message does not say it, and the code in small print. A peer's failure is said as past once
 * /health reads the peer back; ActionError also quiets the line around it.
 */
export function ErrorText({ error }: { error: unknown }) {
  const code = error instanceof ApiError ? error.code : undefined;
  const status = error instanceof ApiError ? error.status : -1;
  const back = usePeerBack(error);
  const peer = error instanceof ApiError && error.peer ? peerFailureSentence(error.peer) : null;
  if (peer) {
    // A peer's failure: what happened in words, said as past once the peer is back (issue #40.2);
    // the bridge's own message (which names the call that failed) behind Details.
    const words = (back && peerFailurePast(back.peer, back.failedAt)) ?? peer;
    return (
      <>
        <span className="error-advice">{words}</span> <ErrorDetails error={error} />
      </>
    );
  }
  const advice = code !== undefined && selfExplaining.has(code) ? null : adviceFor(code, status);
  return (
    <>
      {errorMessage(error)}
      {advice ? <span className="error-advice"> {advice}</span> : null}
      {code ? (
        <>
          {' '}
          <ErrorDetails error={error} />
        </>
      ) : null}
    </>
  );
}

/**
 * An action's failure on its line ("Sync failed: …"): red and announced while it is the state of
 * things; once /health reads the peer that caused it reachable again, a quiet past-tense line
 * (issue #40.2): "Sync failed: the CRM could not be reached at 10:42; it is back now."
 */
export function ActionError({
  error,
  lead,
  className = 'field-error',
  testId,
}: {
  error: unknown;
  /** "Sync failed": what did not happen, before the reason. */
  lead?: string;
  className?: string;
  testId?: string;
}) {
  const back = usePeerBack(error) !== null;
  return (
    <span
      className={back ? 'action-error-past muted small' : className}
      role={back ? 'status' : 'alert'}
      data-testid={testId}
      data-past={back ? 'true' : undefined}
    >
      {lead ? `${lead}: ` : null}
      <ErrorText error={error} />
    </span>
  );
}
