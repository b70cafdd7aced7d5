import type { ResponseOf } from '../../../shared/api/contract.js';
import type { previewReschedule } from '../../../shared/api/posting.js';
import { ErrorText, Spinner } from '../components/States.js';

type ChangePreview = ResponseOf<typeof previewReschedule>;

/** The main button of a scheduled post's edit: what it does, once the bridge has said so. */
export function changeLabel(preview: ChangePreview | null, unchanged: boolean): string {
  if (unchanged || preview === null) return 'Save';
  if (preview.how === 'moved-in-place') return 'Move it';
  if (preview.how === 'cancelled-and-created' || preview.how === 'created')
    return `Replace it (${preview.quotaCost} post of today's quota)`;
  return 'Save';
}

/**
 * What an edit of a scheduled post does and costs, said once before it is made (issue #40.1), from
 * the bridge's reschedule-preview: a move in place uses no quota; new text, media or platforms (or
 * any change on the free plan) cancel the post at the provider and create a new one, which counts.
 */
export function ChangeCost({
  preview,
  pending,
  error,
  unchanged,
}: {
  preview: ChangePreview | null;
  pending: boolean;
  error: unknown;
  unchanged: boolean;
}) {
  let words;
  if (unchanged) words = <span className="muted">Nothing changed yet.</span>;
  else if (error) words = <ErrorText error={error} />;
  else if (preview === null || pending) words = <Spinner label="Asking the bridge what this change costs…" />;
  else if (preview.how === 'moved-in-place')
    words = 'Moves it, no quota: the same post at the provider, at the new time.';
  else if (preview.how === 'cancelled-and-created' || preview.how === 'created')
    words = (
      <>
        Cancels it at the provider and creates a new one: {preview.quotaCost} of today&apos;s{' '}
        {preview.quota.limit} posts ({preview.quota.left} left).
        <span className="banner-detail">
          The cancelled post still counts
          {/free plan/.test(preview.message) ? '; the free plan cannot move a post in place' : ''}. It is
          never live twice: if the new one is refused, the post shows Failed, to edit.
        </span>
      </>
    );
  else words = <>Cannot be changed as it is: {preview.message}.</>;
  const tone =
    unchanged || error || preview === null || pending
      ? ''
      : preview.how === 'moved-in-place'
        ? 'banner-ok'
        : preview.how === 'not-moved'
          ? 'banner-bad'
          : 'banner-warn';
  return (
    <div className={`banner ${tone}`} aria-live="polite" data-testid="edit-cost">
      <div>{words}</div>
    </div>
  );
}
