import type { CollectionProgress, CollectionRun, PublishedPosts } from '../../../shared/api/analytics.js';
import { columnLabels } from '../components/column-labels.js';
import { ApiError, errorMessage } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, Spinner } from '../components/States.js';
import { StatusPill, type Tone } from '../components/StatusPill.js';
import { formatDuration, useNow } from '../format.js';
import { LocalTime } from '../components/LocalTime.js';
import { adviceFor, waitingWords } from '../api/words.js';
import { platformLabel } from './format.js';
import { PublishedSplit } from './PublishedSplit.js';
import { useCollectionLive, useCollectionRuns, useStartCollection } from './queries.js';

const statusTone: Record<CollectionRun['status'], Tone> = {
  running: 'info',
  succeeded: 'ok',
  partial: 'warn',
  failed: 'bad',
};
const statusText: Record<CollectionRun['status'], string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  partial: 'Partly failed',
  failed: 'Failed',
};
/** How a run was started, in words. */
const triggerText: Record<CollectionRun['trigger'], string> = {
  timer: 'on the timer',
  manual: 'started by hand',
  'catch-up': 'catch-up at start-up',
};
const phaseText: Record<CollectionProgress['phase'], string> = {
  started: 'Starting',
  social: 'Social metrics read',
  posts: 'Reading post performance',
  writing: 'Saving',
  done: 'Done',
};

/** Collect now, live progress from /events, and how the last runs went. */
export function CollectionPanel() {
  const runs = useCollectionRuns();
  const start = useStartCollection();
  const running = runs.data?.data.find((run) => run.status === 'running') ?? null;
  const runId = running?.id ?? (start.isPending ? null : (start.data?.runId ?? null));
  const progress = useCollectionLive(runId);
  const busy = start.isPending || running !== null;
  const refused = start.error instanceof ApiError && start.error.status === 409;

  return (
    <Panel
      title="Collection"
      testId="collection-panel"
      actions={
        <button
          type="button"
          className="button button-primary"
          onClick={() => start.mutate()}
          disabled={busy}
          data-testid="collect-now"
        >
          {busy ? <Spinner label="Collecting…" /> : 'Collect now'}
        </button>
      }
    >
      {start.isError ? (
        <p className={refused ? 'analytics-info' : 'field-error'} role="alert">
          {refused ? `Already collecting: ${errorMessage(start.error)}` : errorMessage(start.error)}
        </p>
      ) : null}
      {running ? <RunProgress run={running} progress={progress} /> : null}
      <QueryContent query={runs} what="collection runs" skeletonLines={4}>
        {(data) => {
          const last = data.data.find((run) => run.status !== 'running');
          if (!last && !running) {
            return (
              <EmptyState title="No collection yet">
                The bridge reads the provider every few hours. Collect now to fetch today&apos;s numbers.
              </EmptyState>
            );
          }
          return (
            <>
              {last ? <LastRun run={last} published={data.published} /> : null}
              <RecentRuns runs={data.data.slice(0, 5)} />
            </>
          );
        }}
      </QueryContent>
      <p className="muted small analytics-note">
        Runs automatically on the bridge&apos;s timer (every 6 hours by default) and catches up at start-up.
      </p>
    </Panel>
  );
}

function RunProgress({ run, progress }: { run: CollectionRun; progress: CollectionProgress | null }) {
  const total = progress?.total ?? 0;
  const done = progress?.done ?? 0;
  const share = progress?.phase === 'posts' && total > 0 ? done / total : null;
  return (
    <div className="run-progress" data-testid="collection-progress" aria-live="polite">
      <div className="run-progress-head">
        <StatusPill tone="info">Run {run.id} running</StatusPill>
        <span className="muted small">
          {progress ? phaseText[progress.phase] : 'Starting'}
          {progress?.phase === 'posts' && total > 0 ? ` · ${done} / ${total} posts` : ''}
          {progress?.phase === 'social' && total > 0 ? ` · ${done} / ${total} platforms` : ''}
        </span>
      </div>
      {progress?.waiting ? (
        <p className="muted small" data-testid="collection-waiting">
          {waitingWords(progress.waiting)}
        </p>
      ) : null}
      <div className="meter" aria-hidden="true">
        <span
          className={`meter-ok ${share === null ? 'run-progress-indeterminate' : ''}`.trim()}
          style={{ width: share === null ? '35%' : `${Math.max(4, Math.round(share * 100))}%` }}
        />
      </div>
    </div>
  );
}

function LastRun({ run, published }: { run: CollectionRun; published: PublishedPosts | null }) {
  const now = useNow(10_000);
  const tookS =
    run.finished_at !== null ? (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000 : null;
  return (
    <div className="last-run" data-testid="last-run">
      <div className="last-run-head">
        <StatusPill tone={statusTone[run.status]}>{statusText[run.status]}</StatusPill>
        <span className="muted small">
          Run {run.id} · {triggerText[run.trigger]} ·{' '}
          <LocalTime
            iso={run.started_at}
            relativeTo={now}
            className="local-time-inline"
            testId="last-run-time"
          />
          {tookS !== null ? ` · took ${formatDuration(Math.max(1, tookS))}` : ''}
        </span>
      </div>
      <ul className="outcome-list" aria-label="Platforms">
        {run.outcomes.map((outcome) => (
          <li
            key={outcome.platform}
            className={`outcome outcome-${outcome.status}`}
            title={outcome.error ?? `${outcome.followers ?? 0} followers`}
          >
            {platformLabel(outcome.platform)}
            {outcome.status === 'failed' ? ' ✕' : ''}
          </li>
        ))}
      </ul>
      <p className="small last-run-posts">
        {run.posts_collected} of {run.posts_seen} published posts measured
        {run.posts_failed > 0 ? `, ${run.posts_failed} failed` : ''}
      </p>
      <PublishedSplit published={published} />
      {run.status === 'failed' ? (
        <p className="last-run-advice" data-testid="last-run-advice">
          {adviceFor(run.error_code ?? 'COLLECTION_FAILED', 500)}
        </p>
      ) : null}
      {run.error ? <p className="cell-error small last-run-error">{run.error}</p> : null}
      {run.error_code ? <p className="error-code">{run.error_code}</p> : null}
    </div>
  );
}

function RecentRuns({ runs }: { runs: readonly CollectionRun[] }) {
  if (runs.length < 2) return null;
  return (
    <details className="recent-runs">
      <summary className="small">Recent runs</summary>
      <table ref={columnLabels} className="table table-compact">
        <thead>
          <tr>
            <th>Run</th>
            <th>Started</th>
            <th>Trigger</th>
            <th>Status</th>
            <th className="num">Posts</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>{run.id}</td>
              <td>
                <LocalTime iso={run.started_at} />
              </td>
              <td>{triggerText[run.trigger]}</td>
              <td>
                <StatusPill tone={statusTone[run.status]}>{statusText[run.status]}</StatusPill>
              </td>
              <td className="num">{run.posts_collected}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
