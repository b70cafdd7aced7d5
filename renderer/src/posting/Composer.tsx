import { useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { PostView, QuotaSnapshot } from '../../../shared/api/posting.js';
import { postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import { reviewPost } from '../../../shared/post-rules.js';
import { ApiError, errorMessage } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { Details, ErrorText, Spinner } from '../components/States.js';
import { formatLocal, useNow } from '../format.js';
import { useDebouncedValue } from '../use-debounced-value.js';
import { postFormNotes } from './post-form-notes.js';
import { fieldNames, refusalWords, warningWords, type PostField } from './post-words.js';
import { useSearchParams } from '../hash-router.js';
import {
  anHourAhead,
  postLinksOf,
  prefilledForm,
  splitLines,
  splitTags,
  type PostFormValues,
} from './post-form-values.js';
import { PostForm } from './PostForm.js';
import { PostLinkNote } from './PostLinkNote.js';
import { usePosts, usePreview, useSchedulePost, type PreviewInput, type Scheduled } from './api.js';
import { fromLocalInput } from './time.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';

const newKey = () => `composer-${crypto.randomUUID()}`;

const emptyForm = (): PostFormValues => ({
  text: '',
  platforms: ['microblog'],
  hashtags: '',
  media: '',
  when: anHourAhead(),
  now: false,
});

/**
 * The post form: text, platforms, hashtags, media, publish now or at a time in the operator's
 * zone (shown beside UTC). Counts characters per platform as the bridge does (shared rules,
 * twitter-text for microblog) while typing; spacing warnings come from the bridge's ledger.
 */
export function Composer({ quota }: { quota: QuotaSnapshot | undefined }) {
  const [params] = useSearchParams();
  // A post from elsewhere (a clip made ready) arrives in the address; the form starts from it once.
  const [values, setValues] = useState(() => prefilledForm(params, emptyForm()));
  // The clip and production it was made from go with the post; the next post is a post of its own.
  const [links, setLinks] = useState(() => postLinksOf(params));
  const [last, setLast] = useState<Scheduled | null>(null);
  const [confirmingNow, setConfirmingNow] = useState(false);
  const idempotencyKey = useRef(newKey());
  const schedule = useSchedulePost();
  const posts = usePosts();
  const now = useNow(30_000);
  const { text, platforms } = values;

  // Memoised on the input's text: a new Date each render would make a new draft each render, and
  // the bridge's preview (spacing against every scheduled post) would never be taken as current.
  const whenDate = useMemo(
    () => (values.now ? null : fromLocalInput(values.when)),
    [values.now, values.when],
  );
  const draft: PreviewInput = useMemo(
    () => ({
      post: values.text,
      platforms: values.platforms,
      hashtags: splitTags(values.hashtags),
      mediaUrls: splitLines(values.media),
      scheduleDate: values.now ? null : (whenDate?.toISOString() ?? values.when),
      // What went out under this key (a partly failed send keeps the form) is not spaced against itself.
      idempotencyKey: idempotencyKey.current,
      ...links,
    }),
    [values, whenDate, links],
  );
  const local = reviewPost(
    { ...draft, platforms, hashtags: draft.hashtags ?? [], mediaUrls: draft.mediaUrls ?? [] },
    { now: new Date(now) },
  );
  const settled = useDebouncedValue(draft, 400);
  const preview = usePreview(text.trim() !== '' && platforms.length > 0 ? settled : null);
  // The bridge's verdict on the draft as it is now, else the same rules run here while it answers.
  const current = preview.data && settled === draft ? preview.data : null;
  const noQuota = quota !== undefined && quota.left === 0;
  const blocked = local.errors.length > 0 || noQuota || schedule.isPending;
  const refusal = schedule.error instanceof ApiError ? refusalWords(schedule.error) : [];
  const notes = postFormNotes({
    refusal,
    // An empty form is not an error to shout about: the button says enough.
    errors: (current ? current.errors : local.errors).filter(
      (e) => !(e.field === 'post' && e.rule === 'required' && text === ''),
    ),
    warnings: current ? current.warnings : local.warnings,
    at: draft.scheduleDate,
  });

  function edit(change: Partial<PostFormValues>) {
    setValues((form) => ({ ...form, ...change }));
    // Choosing now or later keeps the last answer on screen; a value edited clears it.
    if (change.now === undefined) schedule.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blocked) return;
    // Posting now is public at once: it asks first (DESIGN §6.8).
    if (values.now) setConfirmingNow(true);
    else send();
  }

  function send() {
    schedule.mutate(draft, {
      onSuccess: (answer) => {
        setLast(answer);
        setValues((form) => ({ ...form, text: '', hashtags: '', media: '' }));
        idempotencyKey.current = newKey();
        setLinks({});
      },
      onSettled: () => setConfirmingNow(false),
    });
  }

  return (
    <Panel title="Compose" testId="post-composer">
      <form className="posts-composer" onSubmit={submit} noValidate>
        <PostLinkNote links={links} />
        <PostForm
          form="composer"
          layout="panel"
          values={values}
          onChange={edit}
          notes={notes}
          lengths={local.lengths}
          sentText={local.text}
          hashtags
          publishNow
        />

        <div className="posts-submit">
          <button type="submit" className="button button-primary" disabled={blocked}>
            {schedule.isPending ? <Spinner label="Sending…" /> : values.now ? 'Publish now' : 'Schedule post'}
          </button>
          {noQuota ? (
            <span className="field-error">
              Today's quota is used up; it resets at {formatLocal(quota.resetsAt)}.
            </span>
          ) : null}
        </div>
        {confirmingNow ? (
          <ConfirmDialog
            title={`Post “${excerpt(local.text)}” to ${platforms.map((p) => postingPlatforms[p].label).join(', ')} now?`}
            confirmLabel="Post now"
            pendingLabel="Sending…"
            pending={schedule.isPending}
            onConfirm={send}
            onCancel={() => setConfirmingNow(false)}
          >
            <p>It will be public.</p>
          </ConfirmDialog>
        ) : null}
        {schedule.isError ? (
          <ScheduleError
            error={schedule.error}
            placedAt={[...new Set(refusal.map((r) => r.field))]}
            failedRow={failedRowOf(posts.data?.data ?? [], schedule.variables, now)}
          />
        ) : null}
        {schedule.isSuccess && last ? <ScheduleSuccess answer={last} /> : null}
      </form>
    </Panel>
  );
}

/** The Failed row the bridge kept of the last send, if it kept one: the same text and time, from here. */
function failedRowOf(
  posts: readonly PostView[],
  draft: PreviewInput | undefined,
  now: number,
): PostView | undefined {
  if (draft === undefined) return undefined;
  const sent = {
    text: reviewPost(
      { ...draft, hashtags: draft.hashtags ?? [], mediaUrls: draft.mediaUrls ?? [] },
      { now: new Date(now) },
    ).text,
    scheduleDate: draft.scheduleDate ?? null,
  };
  return posts.find(
    (post) =>
      post.source === 'api' &&
      post.status === 'failed' &&
      post.post === sent.text &&
      (sent.scheduleDate === null || Date.parse(post.publishAt ?? '') === Date.parse(sent.scheduleDate)),
  );
}

/** The start of a post, to name it in one line. */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/** A partial failure's details from the bridge: the platforms it went out on. */
function isPartial(details: unknown): details is { posted: string[] } {
  return (
    typeof details === 'object' &&
    details !== null &&
    Array.isArray((details as { posted?: unknown }).posted) &&
    (details as { posted: unknown[] }).posted.length > 0
  );
}

function ScheduleError({
  error,
  placedAt,
  failedRow,
}: {
  error: unknown;
  placedAt: Array<PostField | null>;
  /** The Failed row the bridge kept of the refused post, in the list below (issue #40.3). */
  failedRow: PostView | undefined;
}) {
  const api = error instanceof ApiError ? error : null;
  const fieldsNamed = placedAt.flatMap((field) => (field ? [fieldNames[field]] : []));
  if (fieldsNamed.length > 0) {
    // Said in words at the field it is about; here only where to look, beside the button.
    return (
      <div className="banner banner-bad" role="alert" data-testid="schedule-error">
        <div>
          <strong>Not posted.</strong> The bridge refused it: see {fieldsNamed.join(' and ')} above.
        </div>
      </div>
    );
  }
  // The provider's own words, unless the message already says them (they were shown twice).
  const details =
    api && typeof api.details === 'string' && !errorMessage(error).includes(api.details) ? api.details : null;
  if (api && isPartial(api.details)) {
    // Partly out: the bridge says per platform what happened; the row below has what to do next.
    return (
      <div className="banner banner-warn" role="alert" data-testid="schedule-error">
        <div>
          <strong>Partly posted.</strong> {api.message}
          <span className="banner-detail">
            It is in the list below as Partly failed: Retry failed sends it again where it was refused, Cancel
            the rest takes back what is scheduled, Edit… changes it first.
          </span>
        </div>
      </div>
    );
  }
  if (failedRow) {
    // One outcome, said once (issue #40.3): the row below has the reason and the actions.
    const where = failedRow.platforms.map((p) => postingPlatforms[p as PlatformKey]?.label ?? p).join(', ');
    return (
      <div className="banner banner-bad" role="alert" data-testid="schedule-error">
        <div>
          <strong>Not posted.</strong> The provider refused it on {where}. It is listed below as Failed, with
          the reason; Retry there sends it once more.
          <details className="banner-detail">
            <summary>Details</summary>
            <ErrorText error={error} />
            {details ? <> · Provider: {details}</> : null}
          </details>
        </div>
      </div>
    );
  }
  return (
    <div className="banner banner-bad" role="alert" data-testid="schedule-error">
      <div>
        <strong>Not posted.</strong> <ErrorText error={error} />
        {details ? <span className="banner-detail">Provider: {details}</span> : null}
      </div>
    </div>
  );
}

function ScheduleSuccess({ answer }: { answer: Scheduled }) {
  const platforms = answer.posts.map((p) => postingPlatforms[p.platform as PlatformKey]?.label ?? p.platform);
  return (
    <div className="banner banner-ok" role="status" data-testid="schedule-success">
      <div>
        <strong>{answer.status === 'scheduled' ? 'Scheduled' : 'Published'}</strong>
        {answer.scheduleDate ? ` for ${formatLocal(answer.scheduleDate)}` : ''} on {platforms.join(', ')}
        {answer.warnings.length > 0 ? (
          <span className="banner-detail">
            {answer.warnings.map((w) => warningWords(w, answer.scheduleDate).text).join(' · ')}
          </span>
        ) : null}{' '}
        <Details testId="success-details">Provider id {answer.id}</Details>
      </div>
    </div>
  );
}
