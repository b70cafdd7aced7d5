import type { PostView } from '../../../../shared/api/posting.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { formatLocal, formatUtc } from '../../format.js';
import { platformLabel } from '../status.js';
import { ApiError } from '../../api/transport/client.js';
import { refusalWords, warningWords } from '../post-words.js';
import { postTitle } from './model.js';

/**
 * The one question a drop asks, saying what the move costs. On premium and business the post is
 * moved in place at the provider (the same post, no quota; issue #36.3); on the free plan it is
 * cancelled and created again (a new provider post), and the cancelled one still counts toward
 * the day's quota (DESIGN §6.2). The rules' warnings are listed; the bridge checks all again.
 */
export function MoveDialog({
  post,
  at,
  warnings,
  quotaLeft,
  inPlace,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  post: PostView;
  at: Date;
  warnings: readonly string[];
  quotaLeft: number | null;
  /** The plan moves a post in place (premium, business). */
  inPlace: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const iso = at.toISOString();
  // The bridge's refusal of the new time (or text, media) in words, as the Edit dialog says it.
  const refused = error instanceof ApiError ? refusalWords(error) : [];
  const where = post.platforms.map(platformLabel).join(', ');
  return (
    <ConfirmDialog
      title={`Move “${postTitle(post)}” to ${formatLocal(iso)}?`}
      confirmLabel="Move it"
      pendingLabel="Moving…"
      pending={pending}
      error={refused.length > 0 ? new Error(refused.map((r) => r.text).join(' ')) : error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="cal-move" data-testid="calendar-move-dialog">
        <p>
          New time: <strong>{formatLocal(iso)}</strong> <span className="mono small">({formatUtc(iso)})</span>
          {post.publishAt ? <>, was {formatLocal(post.publishAt)}.</> : null}
        </p>
        <MoveCost where={where} inPlace={inPlace} quotaLeft={quotaLeft} />
        {post.source === 'crm' ? <p>The new time is written back to its CRM record.</p> : null}
        {warnings.length > 0 ? (
          <ul className="cal-move-warnings" data-testid="calendar-move-warnings">
            {warnings.map((warning) => (
              <li key={warning}>{warningWords(warning, iso).text}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}

/** What a move costs: nothing in place (premium, business); else a cancel and a create, one post of the quota. */
export function MoveCost({
  where,
  inPlace,
  quotaLeft,
}: {
  where: string;
  inPlace: boolean;
  quotaLeft: number | null;
}) {
  return inPlace ? (
    <p>
      The bridge moves it in place at the provider: the same post on {where}, at the new time. No new post is
      made, so it uses none of today&apos;s quota. A post due within 2 minutes is not moved.
    </p>
  ) : (
    <p>
      The bridge cancels it at the provider first, then creates it again on {where} for the new time. The
      cancelled post still counts toward today&apos;s quota: this move uses one more post
      {quotaLeft !== null ? ` (${quotaLeft} left today, UTC)` : ''}. If the new one is refused, the post shows
      Failed, to edit; it is never live twice.
    </p>
  );
}
