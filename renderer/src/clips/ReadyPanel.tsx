import { renderSizes, type RenderRecord } from '../../../shared/api/renders.js';
import { errorMessage } from '../api/transport/client.js';
import { LocalTime } from '../components/LocalTime.js';
import { Spinner } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { useNow } from '../format.js';
import { Link } from '../hash-router.js';
import type { ClipRef } from './api.js';
import { useMakeReady } from './renders-api.js';

const kindLabel = (kind: NonNullable<RenderRecord['ready']>['media'][number]['kind']) =>
  kind === 'thumbnail' ? 'Thumbnail' : renderSizes[kind].label;

/**
 * Make ready (issue #44.1): the done render's files go to the posting provider's media store and the
 * CRM Clip becomes Ready with their URLs; the URLs serve 30 days, which this says.
 */
export function ReadyPanel({
  clipRef,
  render,
  hookQuote,
  contentProductionId,
}: {
  clipRef: ClipRef;
  render: RenderRecord;
  hookQuote: string;
  contentProductionId: string;
}) {
  const makeReady = useMakeReady(clipRef);
  const now = useNow(60_000);
  const ready = render.ready;
  const working = ready?.state === 'queued' || ready?.state === 'uploading';
  const expired = ready?.expiresAt != null && Date.parse(ready.expiresAt) <= now;
  return (
    <div className="cl-ready" data-testid="render-ready" data-state={ready?.state ?? 'none'}>
      <p className="cl-render-line">
        {ready?.state === 'ready' && !expired ? (
          <StatusPill tone="ok">Ready in the CRM</StatusPill>
        ) : ready?.state === 'ready' ? (
          <StatusPill tone="warn">Media expired at the provider</StatusPill>
        ) : working ? (
          <StatusPill tone="info">
            {ready.state === 'queued'
              ? 'Make ready queued'
              : `Uploading ${ready.progress ? `${ready.progress.done} of ${ready.progress.total}` : ''}`}
          </StatusPill>
        ) : null}
        <button
          type="button"
          className="button button-small"
          disabled={working || makeReady.isPending}
          onClick={() => makeReady.mutate(render.id)}
          title="Upload the files and a thumbnail to the posting provider and mark the CRM Clip Ready"
        >
          {makeReady.isPending ? (
            <Spinner label="Asking…" />
          ) : ready?.state === 'ready' ? (
            'Upload again'
          ) : (
            'Make ready'
          )}
        </button>
      </p>
      {ready?.state === 'failed' ? (
        <p className="field-error" role="alert" data-testid="render-ready-error">
          Make ready failed: {ready.error}
        </p>
      ) : null}
      {makeReady.isError ? (
        <p className="field-error" role="alert" data-testid="render-ready-refused">
          Couldn't make it ready: {errorMessage(makeReady.error)}
        </p>
      ) : null}
      {ready?.state === 'ready' && ready.media.length > 0 ? (
        <ul className="cl-ready-media small" data-testid="render-ready-media">
          {ready.media.map((media) => (
            <li key={media.kind}>
              <span>{kindLabel(media.kind)}</span>{' '}
              <a href={media.accessUrl} target="_blank" rel="noreferrer" className="mono">
                at the provider
              </a>{' '}
              <span className="muted">
                until <LocalTime iso={media.expiresAt} utc={false} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {ready?.state === 'ready' && !expired ? (
        <PostLink ready={ready} hookQuote={hookQuote} contentProductionId={contentProductionId} />
      ) : null}
      {ready?.state === 'ready' && expired ? (
        <p className="cl-fit-warning" role="status">
          The provider no longer serves these files (30 days): upload again before posting the clip.
        </p>
      ) : null}
    </div>
  );
}

/** The caption a post of the clip starts from: its hook quote, quoted, within every platform's limit. */
const CAPTION_CHARS = 240;

/**
 * "Post this clip": the composer opened with the clip's media — the 9:16 file for the vertical
 * platforms, else the 16:9 or 1:1 one for Microblog (spec §2.3's preferred ratios) — and a caption
 * from its hook quote. The composer checks it by the platform rules, the clip's length and expiry;
 * the post links to the CRM Clip and its production.
 */
function PostLink({
  ready,
  hookQuote,
  contentProductionId,
}: {
  ready: NonNullable<RenderRecord['ready']>;
  hookQuote: string;
  contentProductionId: string;
}) {
  const portrait = ready.media.find((media) => media.kind === '9x16');
  const wide = ready.media.find((media) => media.kind === '16x9' || media.kind === '1x1');
  const chosen = portrait ?? wide;
  if (!chosen) return null;
  const quote = hookQuote.length > CAPTION_CHARS ? `${hookQuote.slice(0, CAPTION_CHARS - 1)}…` : hookQuote;
  const params = new URLSearchParams({
    text: `“${quote}”`,
    media: chosen.accessUrl,
    platform: portrait ? 'shortvideo' : 'microblog',
    production: contentProductionId,
    clip: ready.clipId,
  });
  return (
    <p className="cl-render-line">
      <Link to={`/posts?${params.toString()}`} className="button button-small button-primary">
        Post this clip
      </Link>
      <span className="small muted">opens the composer with its {kindLabel(chosen.kind)} file and quote</span>
    </p>
  );
}
