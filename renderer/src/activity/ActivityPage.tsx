import { useMemo } from 'react';
import { columnLabels } from '../components/column-labels.js';
import type { StoredActivityEvent } from '../../../shared/api/activity.js';
import { activityLevel } from '../../../shared/api/activity.js';
import { activityTypes } from '../../../shared/activity-events.js';
import { useActivity, useJobs } from './api.js';
import type { ActivityFilter, Job } from './api.js';
import {
  acceptsEvent,
  applyActivityFilters,
  isMessageText,
  isTypePrefix,
  jobStatuses,
  MESSAGE_TEXT_MAX,
  readActivityFilters,
} from './filters.js';
import { useSettledText } from './use-settled-text.js';
import { useSearchParams } from '../hash-router.js';
import { routeOfHash } from '../hash-route.js';
import { useLiveActivity } from '../api/live/use-live-activity.js';
import { ActivityList, mergeActivity } from './ActivityList.js';
import { LiveIndicator } from '../components/LiveIndicator.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { Details, EmptyState, Spinner } from '../components/States.js';
import { jobFailureWords } from '../api/words.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Tone } from '../components/StatusPill.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';

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

/**
 * The address's search params at this moment. Filter writes start from these, not from the
 * render's: the typed filter settles in an effect, and a level chosen meanwhile (after that
 * render, before its effect) would otherwise be written over (seen in the e2e test under load).
 */
function paramsNow(): URLSearchParams {
  return new URLSearchParams(routeOfHash(window.location.hash).search);
}

function EventsPanel() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readActivityFilters(params), [params]);
  // Replace, not push: Back skips the letters typed and returns to the last filter chosen.
  const writeFilter = (change: { type: string } | { q: string }) =>
    setParams(applyActivityFilters(paramsNow(), change), { replace: true });
  const type = useSettledText(filters.type, isTypePrefix, (typed) => writeFilter({ type: typed }));
  const text = useSettledText(filters.q, isMessageText, (typed) => writeFilter({ q: typed }));

  const filter: ActivityFilter = useMemo(
    () => ({
      level: filters.level ?? undefined,
      typePrefix: filters.type === '' ? undefined : filters.type,
      q: filters.q === '' ? undefined : filters.q,
    }),
    [filters.level, filters.type, filters.q],
  );
  const events = useActivity(filter);
  const live = useLiveActivity();
  const filtered = filters.level !== null || filters.type !== '' || filters.q !== '';

  const knownTypes = useMemo(() => {
    const types = new Set<string>(activityTypes);
    for (const event of live.events) types.add(event.type);
    for (const page of events.data?.pages ?? []) for (const event of page.data) types.add(event.type);
    return [...types].sort();
  }, [live.events, events.data]);

  const accept = (event: StoredActivityEvent) => acceptsEvent(filters, event);

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
            value={filters.level ?? ''}
            onChange={(event) => {
              const parsed = activityLevel.safeParse(event.target.value);
              setParams(applyActivityFilters(paramsNow(), { level: parsed.success ? parsed.data : null }));
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
            placeholder="any type, or its start: posting, job.failed"
            value={type.text}
            onChange={(event) => type.setText(event.target.value)}
            aria-invalid={type.refused}
            aria-describedby={type.refused ? 'activity-type-error' : undefined}
          />
          {type.refused ? (
            <span className="field-error" id="activity-type-error" role="alert">
              Event types hold only letters, digits and . _ -
            </span>
          ) : null}
          <datalist id="activity-types">
            {knownTypes.map((known) => (
              <option key={known} value={known} />
            ))}
          </datalist>
        </label>
        <label className="filter filter-grow">
          <span className="field-label">Text</span>
          <input
            className="input"
            type="search"
            placeholder="words in the message: a guest, a post, an episode"
            maxLength={MESSAGE_TEXT_MAX}
            value={text.text}
            onChange={(event) => text.setText(event.target.value)}
          />
        </label>
        {filtered || type.text !== '' || text.text !== '' ? (
          <button
            type="button"
            className="button button-ghost filter-clear"
            onClick={() => {
              type.setText('');
              text.setText('');
              setParams(applyActivityFilters(paramsNow(), { level: null, type: '', q: '' }));
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
                Try another level, type or text, or clear the filters.
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
  const [params, setParams] = useSearchParams();
  const status = readActivityFilters(params).jobs ?? undefined;
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
            onClick={() => setParams(applyActivityFilters(paramsNow(), { jobs: option ?? null }))}
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
              <td className="cell-error">
                {job.lastError ? <JobError raw={job.lastError} /> : <span className="muted">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A job's last error in words, the peer client's raw line behind Details (issue #40.4). */
function JobError({ raw }: { raw: string }) {
  const { words, details } = jobFailureWords(raw);
  return (
    <>
      {words} {details ? <Details>{details}</Details> : null}
    </>
  );
}
