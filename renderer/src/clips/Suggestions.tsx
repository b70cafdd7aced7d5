import { CLIP_MAX_S, CLIP_MIN_S, formatClipTime } from '../../../shared/api/clips.js';
import { ApiError } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { useAddressedItem } from '../components/addressed-item.js';
import { EmptyState, ErrorState, Skeleton } from '../components/States.js';
import type { AnalysisAsLeft } from './api.js';
import { ClipCard } from './ClipCard.js';
import { EditorExports } from './EditorExports.js';

const formatNames: Record<AnalysisAsLeft['format'], string> = {
  srt: 'SRT',
  vtt: 'WebVTT',
  stamped: 'time-stamped lines',
  plain: 'plain text',
};

/** The analysis result: idle, working, failed, nothing found, or the cards. */
export function Suggestions({
  analysis,
  runKey,
  pending,
  error,
  onRetry,
}: {
  analysis: AnalysisAsLeft | undefined;
  /** Changes with every analysis, so the cards (and their draft buttons) start afresh. */
  runKey: string;
  pending: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <Panel title="Suggestions" testId="clips-suggestions">
      {pending ? (
        <div className="cl-working">
          <Skeleton lines={6} label="Analysing the transcript" />
        </div>
      ) : error ? (
        <ErrorState
          title="Couldn't analyse the transcript"
          error={error}
          // The same transcript gets the same refusal: retry only when the bridge could not answer.
          {...(error instanceof ApiError && !error.isTransient ? {} : { onRetry })}
        />
      ) : !analysis ? (
        <EmptyState title="No suggestions yet">
          Paste or drop a transcript, pick its content record and press <strong>Suggest clips</strong>. The
          bridge looks for hooks, quotable lines, emotion and topics, and suggests {CLIP_MIN_S}–{CLIP_MAX_S} s
          moments, offline.
        </EmptyState>
      ) : (
        <Result key={runKey} analysis={analysis} />
      )}
    </Panel>
  );
}

function Result({ analysis }: { analysis: AnalysisAsLeft }) {
  const estimated = analysis.timing === 'estimated';
  // Reached from a production's page (`#/clips?analysis=<id>&clip=<n>`): this card is the one meant.
  const focused = Number(useAddressedItem('clip'));
  const { stats } = analysis;
  return (
    <div className="cl-result">
      <p className="cl-summary" data-testid="clips-summary">
        <strong>
          {analysis.suggestedClips.length} suggestion{analysis.suggestedClips.length === 1 ? '' : 's'}
        </strong>{' '}
        from {formatClipTime(stats.durationS)} of {formatNames[analysis.format]} ·{' '}
        {stats.words.toLocaleString('en-US')} words ·{' '}
        {estimated ? (
          <span className="pill pill-warn">times estimated at 150 wpm</span>
        ) : (
          <span className="pill pill-ok">times from the transcript</span>
        )}
      </p>
      {analysis.topics.length > 1 ? (
        <div className="cl-topics" aria-label="Topics">
          <span className="small muted">Topics</span>
          {analysis.topics.map((topic) => (
            <span key={topic.id} className="cl-topic-chip" title={`${Math.round(topic.seconds)} s`}>
              {topic.keywords.join(', ')} <span className="muted">{Math.round(topic.share * 100)}%</span>
            </span>
          ))}
        </div>
      ) : null}
      {analysis.suggestedClips.length > 0 ? <EditorExports analysis={analysis} /> : null}
      {analysis.warnings.length > 0 ? (
        <div className="banner banner-warn" role="status">
          <span>{analysis.warnings.join('; ')}</span>
        </div>
      ) : null}
      {analysis.suggestedClips.length === 0 ? (
        <EmptyState title="No clip-worthy moments found">
          A clip needs {CLIP_MIN_S} to {CLIP_MAX_S} seconds of whole sentences. Try a longer transcript.
        </EmptyState>
      ) : (
        <div className="cl-cards">
          {analysis.suggestedClips.map((clip, i) => (
            <ClipCard
              key={`${clip.startTime}-${clip.endTime}`}
              clip={clip}
              rank={i + 1}
              analysisId={analysis.analysisId}
              contentProductionId={analysis.contentProductionId}
              estimated={estimated}
              kept={analysis.kept[i] ?? null}
              focused={focused === i + 1}
            />
          ))}
        </div>
      )}
    </div>
  );
}
