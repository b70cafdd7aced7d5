import { Fragment, useState } from 'react';
import type { ClipSignal, ReviewedClip, SuggestedClip } from '../../../shared/api/clips.js';
import { formatClipTime, getClipSrt, getClipVtt } from '../../../shared/api/clips.js';
import { errorMessage } from '../api/transport/client.js';
import { ActionError, Spinner } from '../components/States.js';
import { Link } from '../hash-router.js';
import { addressedItemProps } from '../components/addressed-item.js';
import { useCreateDraft, useNudgeClip, type Kept } from './api.js';
import { ExportButton } from './ExportButton.js';
import { RenderPanel } from './RenderPanel.js';
import { evidenceWords } from './signal-words.js';
import { ProductionLink } from '../productions/ProductionLink.js';

/** The review's four buttons: each edge of the clip moved one whole sentence earlier or later. */
const nudgeEdges = [
  { edge: 'in', label: 'In', className: 'small muted' },
  { edge: 'out', label: 'Out', className: 'small muted cl-review-out' },
] as const;
const nudgeSteps = [
  { step: -1, word: 'earlier', glyph: '◀' },
  { step: 1, word: 'later', glyph: '▶' },
] as const;

const signalLabels: Record<ClipSignal['name'], string> = {
  hook: 'Hook',
  question: 'Question',
  numbers: 'Numbers',
  contrast: 'Contrast',
  openLoop: 'Open loop',
  emotion: 'Emotion',
  quote: 'Quote',
  coherence: 'On topic',
  shape: 'Shape',
  filler: 'Filler',
  disfluency: 'Ums and uhs',
  danglingStart: 'Starts mid-thought',
};

const tone = (confidence: number) => (confidence >= 0.75 ? 'ok' : confidence >= 0.5 ? 'warn' : 'bad');

/** One suggestion: when, how strong, why, what about, where it fits, the quote, and a way into the CRM. */
export function ClipCard({
  clip,
  rank,
  analysisId,
  contentProductionId,
  estimated,
  kept,
  focused = false,
}: {
  clip: SuggestedClip;
  rank: number;
  analysisId: string;
  contentProductionId: string;
  estimated: boolean;
  /** As the operator left it (issue #44.3): the review, the draft made (here, or of the same moment elsewhere). */
  kept: Kept | null;
  /** The card a link opened: scrolled to and marked. */
  focused?: boolean;
}) {
  const ref = { analysisId, n: rank };
  const draft = useCreateDraft(ref);
  const nudge = useNudgeClip(ref);
  // The suggestion as reviewed (nudged by whole sentences): what the exports and the draft take.
  const [reviewed, setReviewed] = useState<ReviewedClip | null>(kept?.reviewed ?? null);
  const keptDraft = kept?.draft ?? null;
  const elsewhere = keptDraft !== null && keptDraft.analysisId !== analysisId;
  const drafted = draft.isSuccess || keptDraft !== null;
  const current = reviewed ?? clip;
  const percent = Math.round(clip.confidence * 100);
  const range = `${formatClipTime(current.startTime)}–${formatClipTime(current.endTime)}`;
  const move = (edge: 'in' | 'out', sentences: number) =>
    nudge.mutate({ edge, sentences }, { onSuccess: (answer) => setReviewed(answer.clip) });

  return (
    <article
      {...addressedItemProps(focused)}
      className={focused ? 'cl-card cl-card-focused' : 'cl-card'}
      data-testid="clip-card"
      aria-label={`Clip ${rank}, ${range}`}
    >
      <header className="cl-card-head">
        <span className="cl-rank">#{rank}</span>
        <span className="cl-time mono" title={estimated ? 'Estimated at 150 words per minute' : undefined}>
          {estimated ? '≈ ' : ''}
          {range}
        </span>
        <span className="muted small">{Math.round(current.duration)} s</span>
        {clip.marks.length > 0 ? <span className="pill pill-info">Marked live</span> : null}
        {reviewed?.nudged ? <span className="pill pill-warn">Reviewed</span> : null}
        <ProductionLink id={contentProductionId} />
        <span className="cl-score" title={`Confidence ${clip.confidence.toFixed(3)}`}>
          <span
            className={`meter meter-${tone(clip.confidence)} cl-score-bar`}
            role="meter"
            aria-label="Confidence"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span style={{ width: `${percent}%` }} />
          </span>
          <span className="cl-score-value">{percent}</span>
        </span>
      </header>

      <blockquote className="cl-quote">{current.hookQuote}</blockquote>
      <p className="cl-reason">{clip.reason}</p>

      <dl className="cl-facts">
        <dt>Topic</dt>
        <dd>
          <span className="cl-topic">{clip.topic}</span>
          {clip.keywords.length > 0 ? (
            <span className="muted small"> · {clip.keywords.join(', ')}</span>
          ) : null}
        </dd>
        <dt>Fits</dt>
        <dd className="cl-platforms">
          {current.fitsPlatforms.length > 0 ? (
            current.fitsPlatforms.map((platform) => (
              <span key={platform} className="pill pill-info">
                {platform}
              </span>
            ))
          ) : (
            <span className="muted">No platform (too long)</span>
          )}
        </dd>
        {clip.speakers.length > 0 ? (
          <>
            <dt>Voices</dt>
            <dd>{clip.speakers.join(', ')}</dd>
          </>
        ) : null}
      </dl>

      <details className="cl-signals">
        <summary>What scored</summary>
        <ul>
          {clip.signals.map((signal) => (
            <li key={signal.name} className={signal.kind === 'penalty' ? 'cl-penalty' : undefined}>
              <span className="cl-signal-name">{signalLabels[signal.name]}</span>
              <span className="cl-signal-points mono">
                {signal.contribution > 0 ? '+' : ''}
                {signal.contribution.toFixed(2)}
              </span>
              <span className="cl-signal-evidence muted">{evidenceWords(signal.evidence)}</span>
            </li>
          ))}
        </ul>
      </details>

      <div
        className="cl-review"
        role="group"
        aria-label={`Review clip ${rank}: move in and out by sentences`}
      >
        {nudgeEdges.map(({ edge, label, className }) => (
          <Fragment key={edge}>
            <span className={className}>{label}</span>
            {nudgeSteps.map(({ step, word, glyph }) => (
              <button
                key={step}
                type="button"
                className="button button-small"
                aria-label={`${label}: one sentence ${word}`}
                disabled={nudge.isPending || drafted}
                onClick={() => move(edge, step)}
              >
                {glyph}
              </button>
            ))}
          </Fragment>
        ))}
        {reviewed ? (
          <span className="small muted" data-testid="clip-reviewed">
            {reviewed.sentences} sentences
          </span>
        ) : null}
        {nudge.isError ? (
          <span className="field-error" role="alert">
            {errorMessage(nudge.error)}
          </span>
        ) : null}
      </div>

      <footer className="cl-card-actions">
        <ExportButton
          contract={getClipSrt}
          params={ref}
          label="SRT"
          title="Captions of this clip as SRT, timed from 0"
        />
        <ExportButton
          contract={getClipVtt}
          params={ref}
          label="WebVTT"
          title="Captions of this clip as WebVTT, timed from 0"
        />
        {keptDraft && !draft.isSuccess ? (
          <span className="field-success" role="status" data-testid="clip-draft-kept">
            {elsewhere ? 'Same moment as draft clip ' : 'Draft clip '}
            <span className="mono">{keptDraft.clipId}</span> · {formatClipTime(keptDraft.startTime)}–
            {formatClipTime(keptDraft.endTime)}
            {elsewhere ? (
              <>
                {' · '}
                <Link to={`/clips?analysis=${keptDraft.analysisId}`}>open it (suggestion {keptDraft.n})</Link>
              </>
            ) : null}
          </span>
        ) : null}
        <button
          type="button"
          className="button button-small"
          hidden={keptDraft !== null && !draft.isSuccess}
          disabled={draft.isPending || draft.isSuccess}
          onClick={() =>
            draft.mutate({
              contentProductionId,
              hookQuote: current.hookQuote,
              startTime: current.startTime,
              endTime: current.endTime,
              targetPlatforms: current.fitsPlatforms,
            })
          }
        >
          {draft.isPending ? (
            <Spinner label="Creating…" />
          ) : draft.isSuccess ? (
            'Draft created'
          ) : (
            'Create draft clip'
          )}
        </button>
        {draft.isSuccess ? (
          <span className="field-success" role="status" data-testid="clip-draft-created">
            {draft.data.created ? 'Draft Clip created in the CRM' : 'Already in the CRM as a draft'} ·{' '}
            <span className="mono">{draft.data.id}</span> · {draft.data.duration} s
          </span>
        ) : null}
        {draft.isSuccess && draft.data.fit.message ? (
          <span className="cl-fit-warning" role="status" data-testid="clip-draft-fit">
            {draft.data.fit.message}
          </span>
        ) : null}
        {draft.isError ? <ActionError error={draft.error} lead="Couldn't create the draft" /> : null}
      </footer>
      <RenderPanel clipRef={ref} clip={current} contentProductionId={contentProductionId} />
    </article>
  );
}
