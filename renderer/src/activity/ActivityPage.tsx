import { useMemo, useState } from 'react';
import { columnLabels } from '../components/column-labels.js';
import type { ActivityLevel, StoredActivityEvent } from '../../../shared/api/activity.js';
import { activityLevel } from '../../../shared/api/activity.js';
import { activityTypes } from '../../../shared/activity-events.js';
import { jobStatuses, useActivity, useJobs } from './api.js';
import type { ActivityFilter, Job, JobStatus } from './api.js';
import { useLiveActivity } from '../api/use-live-activity.js';
import { ActivityList, mergeActivity } from './ActivityList.js';
import { LiveIndicator } from '../components/LiveIndicator.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, Spinner } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Tone } from '../components/StatusPill.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { useDebouncedValue } from '../use-debounced-value.js';

export function ActivityPage() {
  return (
    <>
      <PageHeader
        title="Activity"
        description="Everything the bridge did: webhook deliveries, jobs, peer failures, collections and broadcasts. New events arrive live."
        actions={<LiveIndicator />}
      />
      <EventsPanel />
      <JobsPanel />
    </>
  );
}

function EventsPanel() {
  const [level, setLevel] = useState<ActivityLevel | ''>('');
  const [typeText, setTypeText] = useState('');
  const type = useDebouncedValue(typeText.trim());
  const filter: ActivityFilter = useMemo(
    () => ({ level: level === '' ? undefined : level, type: type === '' ? undefined : type }),
    [level, type],
  );
  const events = useActivity(filter);
  const live = useLiveActivity();
  const filtered = filter.level !== undefined || filter.type !== undefined;

  const knownTypes = useMemo(() => {
    const types = new Set<string>(activityTypes);
    for (const event of live.events) types.add(event.type);
    for (const page of events.data?.pages ?? []) for (const event of page.data) types.add(event.type);
    return [...types].sort();
  }, [live.events, events.data]);

  const accept = (event: StoredActivityEvent) =>
    (filter.level === undefined || event.level === filter.level) &&
    (filter.type === undefined || event.type === filter.type);

  return (
    <Panel
      title="Events"
      testId="activity-panel"
      actions={events.isFetching && !events.isPending && !events.isFetchingNextPage ? <Spinner /> : null}
    >
      <div className="filters" role="search">
        <label className="filter">
          <span className="field-label">Level</span>
          <select
            className="input"
            value={level}
            onChange={(event) => {
              const parsed = activityLevel.safeParse(event.target.value);
              setLevel(parsed.success ? parsed.data : '');
            }}
          >
            <option value="">All levels</option>
            {activityLevel.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
        <label className="filter filter-grow">
          <span className="field-label">Type</span>
          <input
            className="input mono"
            list="activity-types"
            placeholder="any type, e.g. webhook.received"
            value={typeText}
            onChange={(event) => setTypeText(event.target.value)}
          />
          <datalist id="activity-types">
            {knownTypes.map((known) => (
              <option key={known} value={known} />
            ))}
          </datalist>
        </label>
        {filtered || typeText !== '' ? (
          <button
            type="button"
            className="button button-ghost filter-clear"
            onClick={() => {
              setLevel('');
              setTypeText('');
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>
      <QueryContent query={events} what="activity" skeletonLines={6}>
        {(data) => {
          const loaded = data.pages.flatMap((page) => page.data);
          const rows = mergeActivity(live.events, loaded, accept);
          if (rows.length === 0) {
            return filtered ? (
              <EmptyState title="No events match these filters">
                Try another level or type, or clear the filters.
              </EmptyState>
            ) : (
              <EmptyState title="No activity yet">
                When the CRM sends a webhook, a job finishes or analytics are collected, it shows up here.
              </EmptyState>
            );
          }
          return (
            <>
              <ActivityList rows={rows} />
              <div className="list-footer">
                {events.hasNextPage ? (
                  <button
                    type="button"
                    className="button"
                    onClick={() => void events.fetchNextPage()}
                    disabled={events.isFetchingNextPage}
                  >
                    {events.isFetchingNextPage ? <Spinner label="Loading…" /> : 'Load older'}
                  </button>
                ) : (
                  <span className="muted small">
                    {rows.length === 1 ? '1 event' : `${rows.length} events`} · that is all
                  </span>
                )}
              </div>
            </>
          );
        }}
      </QueryContent>
    </Panel>
  );
}

const jobTone: Record<string, Tone> = { pending: 'neutral', running: 'info', done: 'ok', failed: 'bad' };

function JobsPanel() {
  const [status, setStatus] = useState<JobStatus | undefined>(undefined);
  const jobs = useJobs(status);
  return (
    <Panel
      title="Job queue"
      testId="jobs-table-panel"
      actions={jobs.isFetching && !jobs.isPending ? <Spinner /> : null}
    >
      <div className="chips" role="group" aria-label="Job status">
        {[undefined, ...jobStatuses].map((option) => (
          <button
            key={option ?? 'all'}
            type="button"
            className={`chip ${status === option ? 'chip-active' : ''}`.trim()}
            aria-pressed={status === option}
            onClick={() => setStatus(option)}
          >
            {option ?? 'all'}
          </button>
        ))}
      </div>
      <QueryContent query={jobs} what="the job queue" skeletonLines={4}>
        {(data) =>
          data.data.length === 0 ? (
            <EmptyState title={status ? `No ${status} jobs` : 'The queue is empty'}>
              Jobs are created when webhook work outlasts its time budget or must be retried.
            </EmptyState>
          ) : (
            <JobsTable jobs={data.data} />
          )
        }
      </QueryContent>
    </Panel>
  );
}

function JobsTable({ jobs }: { jobs: readonly Job[] }) {
  const now = useNow(15_000);
  return (
    <div className="table-wrap">
      <table ref={columnLabels} className="table">
        <thead>
          <tr>
            <th>#</th>
            <th>Kind</th>
            <th>Status</th>
            <th className="num">Attempts</th>
            <th>Run at</th>
            <th>Created</th>
            <th>Finished</th>
            <th>Last error</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id}>
              <td className="mono muted">{job.id}</td>
              <td className="mono">{job.kind}</td>
              <td>
                <StatusPill tone={jobTone[job.status] ?? 'neutral'}>{job.status}</StatusPill>
              </td>
              <td className="num">{job.attempts}</td>
              <td title={formatDateTime(job.runAt)}>{formatRelative(job.runAt, now)}</td>
              <td title={formatDateTime(job.createdAt)}>{formatRelative(job.createdAt, now)}</td>
              <td>
                {job.finishedAt ? (
                  <span title={formatDateTime(job.finishedAt)}>{formatRelative(job.finishedAt, now)}</span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td className="cell-error">{job.lastError ?? <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
