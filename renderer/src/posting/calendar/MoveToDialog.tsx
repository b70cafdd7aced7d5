import { useState } from 'react';
import type { PostView } from '../../../../shared/api/posting.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { formatLocal, formatUtc, timeZoneName, useNow } from '../../format.js';
import { ApiError } from '../../api/transport/client.js';
import { refusalWords, warningWords } from '../post-words.js';
import { platformLabel } from '../status.js';
import { fromLocalInput, toLocalInput } from '../time.js';
import { judgeMove, postTitle } from './model.js';
import { MoveCost } from './MoveDialog.js';

/**
 * "Move to…" (issue #40.1): a scheduled post given a new day and time without dragging, where there
 * is nothing to drag onto (the narrow agenda, the day's list). The same checks and words as a drop
 * (judgeMove, MoveCost), asked in the one dialog.
 */
export function MoveToDialog({
  post,
  posts,
  quotaLeft,
  plan,
  inPlace,
  pending,
  error,
  onMove,
  onCancel,
}: {
  post: PostView;
  posts: readonly PostView[];
  quotaLeft: number | null;
  plan: string | null;
  inPlace: boolean;
  pending: boolean;
  error: unknown;
  onMove: (at: Date) => void;
  onCancel: () => void;
}) {
  const [when, setWhen] = useState(() => toLocalInput(new Date(post.publishAt!)));
  const now = useNow(30_000);
  const at = fromLocalInput(when);
  const verdict = at ? judgeMove({ post, at }, { now, posts, quotaLeft, plan }) : null;
  const refused = error instanceof ApiError ? refusalWords(error) : [];
  const problem =
    verdict === null
      ? 'Give a day and a time.'
      : verdict.kind === 'same'
        ? 'That is its time now: pick another.'
        : verdict.kind === 'refused'
          ? verdict.reason
          : null;
  return (
    <ConfirmDialog
      title={`Move “${postTitle(post)}” to…`}
      confirmLabel="Move it"
      pendingLabel="Moving…"
      pending={pending}
      error={refused.length > 0 ? new Error(refused.map((r) => r.text).join(' ')) : error}
      onConfirm={() => {
        if (at && verdict?.kind === 'ask') onMove(at);
      }}
      onCancel={onCancel}
    >
      <div className="cal-move" data-testid="calendar-move-to">
        <label className="field-label" htmlFor="cal-move-to-when">
          New time ({timeZoneName()})
        </label>
        <input
          id="cal-move-to-when"
          className="input"
          type="datetime-local"
          value={when}
          aria-describedby="cal-move-to-note"
          onChange={(event) => setWhen(event.target.value)}
        />
        <p id="cal-move-to-note" className={problem ? 'field-error' : 'muted small'}>
          {problem ??
            (at ? (
              <>
                {formatUtc(at.toISOString())} · was {post.publishAt ? formatLocal(post.publishAt) : 'no time'}
                .
              </>
            ) : null)}
        </p>
        <MoveCost
          where={post.platforms.map(platformLabel).join(', ')}
          inPlace={inPlace}
          quotaLeft={quotaLeft}
        />
        {post.source === 'crm' ? <p>The new time is written back to its CRM record.</p> : null}
        {verdict?.kind === 'ask' && verdict.warnings.length > 0 ? (
          <ul className="cal-move-warnings">
            {verdict.warnings.map((warning) => (
              <li key={warning}>{warningWords(warning, at!.toISOString()).text}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
