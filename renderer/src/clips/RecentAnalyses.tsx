import { formatClipTime } from '../../../shared/api/clips.js';
import { Panel } from '../components/Panel.js';
import { LocalTime } from '../components/LocalTime.js';
import { ErrorState, Skeleton } from '../components/States.js';
import { useRecentAnalyses } from './api.js';

/** The analyses the bridge keeps (30 days), newest first: each reopens as it was left (issue #44.3). */
export function RecentAnalyses({ openId, onOpen }: { openId: string | null; onOpen: (id: string) => void }) {
  const recent = useRecentAnalyses();
  const analyses = recent.data?.analyses ?? [];
  return (
    <Panel title="Recent analyses" testId="clips-recent">
      {recent.isPending ? (
        <Skeleton lines={3} label="Loading recent analyses" />
      ) : recent.isError ? (
        <ErrorState
          title="Couldn't list the analyses"
          error={recent.error}
          onRetry={() => void recent.refetch()}
        />
      ) : analyses.length === 0 ? (
        <p className="small muted">None yet: the analyses you make are kept here for 30 days.</p>
      ) : (
        <ul className="cl-recent">
          {analyses.map((analysis) => (
            <li key={analysis.analysisId}>
              <button
                type="button"
                className={`cl-recent-item${analysis.analysisId === openId ? ' cl-recent-open' : ''}`}
                aria-current={analysis.analysisId === openId ? 'true' : undefined}
                onClick={() => onOpen(analysis.analysisId)}
              >
                <span className="cl-recent-what">
                  {analysis.take ? analysis.take.name : 'Transcript without a take'}
                </span>
                <span className="small muted">
                  <LocalTime iso={analysis.createdAt} utc={false} /> · {analysis.suggestions} suggestion
                  {analysis.suggestions === 1 ? '' : 's'}
                  {analysis.drafts.length > 0
                    ? ` · drafts: ${analysis.drafts
                        .map(
                          (draft) =>
                            `#${draft.n} ${formatClipTime(draft.startTime)}–${formatClipTime(draft.endTime)}`,
                        )
                        .join(', ')}`
                    : ''}
                </span>
                <span className="small muted mono">{analysis.contentProductionId}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
