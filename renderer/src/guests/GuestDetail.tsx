import { useEffect, useRef, type ReactNode } from 'react';
import type { ResponseOf } from '../../../shared/api/contract.js';
import {
  workflowOfStage,
  workflowStages,
  type getGuestTimeline,
  type WorkflowRun,
  type WorkflowStage,
} from '../../../shared/api/guests.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { ActionError, Details, EmptyState } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { useGuestTimeline, useRunAgain } from './api.js';
import { runLabel, runTone, sourceLabel } from './format.js';
import { HeldWorkflow } from './HeldWorkflow.js';
import { MoveStage } from './MoveStage.js';
import { ProductionLink } from '../productions/ProductionLink.js';

type Timeline = ResponseOf<typeof getGuestTimeline>;

const isWorkflowStage = (stage: string): stage is WorkflowStage =>
  (workflowStages as readonly string[]).includes(stage);

/** One guest: details, moving the stage in the CRM, and the timeline of what happened. */
export function GuestDetail({ guestId }: { guestId: string | null }) {
  const timeline = useGuestTimeline(guestId);
  const ref = useRef<HTMLElement>(null);
  // Picked in the pipeline, the details may open far below the tap (~930 px at 390 px wide): bring them into view.
  useEffect(() => {
    const panel = ref.current;
    if (guestId === null || !panel) return;
    const { top } = panel.getBoundingClientRect();
    if (top >= 0 && top <= window.innerHeight * 0.6) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    panel.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
  }, [guestId]);
  if (guestId === null) {
    return (
      <Panel title="Guest" testId="guest-detail">
        <EmptyState title="Pick a guest">
          Select a guest in the pipeline to see its stage changes, the workflows they started and their
          outcome.
        </EmptyState>
      </Panel>
    );
  }
  return (
    <Panel
      ref={ref}
      title={timeline.data?.guest.name ?? 'Guest'}
      testId="guest-detail"
      className="guest-detail"
    >
      <QueryContent query={timeline} what="the guest" skeletonLines={6}>
        {(data) => <GuestBody data={data} />}
      </QueryContent>
    </Panel>
  );
}

function GuestBody({ data }: { data: Timeline }) {
  const { guest } = data;
  return (
    <div className="guests-detail">
      <dl className="facts facts-tight">
        <dt>Stage</dt>
        <dd>
          <strong>{guest.stage || '—'}</strong>
          {guest.stageEnteredAt ? (
            <span className="muted"> since {formatDateTime(guest.stageEnteredAt)}</span>
          ) : null}
        </dd>
        <dt>Email</dt>
        <dd>{guest.email ?? <span className="muted">none</span>}</dd>
        <dt>Recording</dt>
        <dd>
          {guest.scheduledDate ? (
            formatDateTime(guest.scheduledDate)
          ) : (
            <span className="muted">not scheduled</span>
          )}
          {guest.timezone ? <span className="muted"> · guest in {guest.timezone}</span> : null}
        </dd>
        <dt>Content</dt>
        <dd>
          {guest.contentProductionId ? (
            <ProductionLink id={guest.contentProductionId} name={guest.contentProductionName} />
          ) : (
            <span className="muted">not linked (set the booking’s content in the CRM)</span>
          )}
        </dd>
      </dl>
      {guest.hold ? <HeldWorkflow guestId={guest.id} hold={guest.hold} /> : null}
      <MoveStage guestId={guest.id} guestName={guest.name} current={guest.stage} />
      <h3 className="subheading">Timeline</h3>
      <TimelineList data={data} />
    </div>
  );
}

interface Item {
  key: string;
  at: string;
  node: ReactNode;
}

function TimelineList({ data }: { data: Timeline }) {
  const now = useNow(30_000);
  const runStages = new Set(data.runs.map((run) => run.stage));
  const items: Item[] = [
    ...data.stages.map((entry) => ({
      key: `stage-${entry.id}`,
      at: entry.enteredAt,
      node: (
        <>
          <span className="guests-tl-kind guests-tl-stage">Stage</span>
          <span>
            {entry.previousStage ? `${entry.previousStage} → ` : ''}
            <strong>{entry.stage}</strong>
            <span className="small muted"> · {sourceLabel[entry.source] ?? entry.source}</span>
          </span>
          {/* A held stage is started from its hold (check again / send anyway), never around it. */}
          {isWorkflowStage(entry.stage) &&
          !runStages.has(entry.stage) &&
          data.guest.hold?.stage !== entry.stage ? (
            <RunButton
              guestId={data.guest.id}
              stage={entry.stage}
              label={`Start ${workflowOfStage[entry.stage]}`}
            />
          ) : null}
        </>
      ),
    })),
    ...data.runs.map((run) => ({
      key: `run-${run.id}`,
      at: run.startedAt ?? run.failedAt ?? run.createdAt,
      node: <RunEntry guestId={data.guest.id} run={run} />,
    })),
    ...data.contentStages.map((entry) => ({
      key: `content-${entry.id}`,
      at: entry.enteredAt,
      node: (
        <>
          <span className="guests-tl-kind guests-tl-content">Content</span>
          <span>
            {data.guest.contentProductionName ?? 'Linked content'}:{' '}
            {entry.previousStage ? `${entry.previousStage} → ` : ''}
            <strong>{entry.stage}</strong>
          </span>
        </>
      ),
    })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.key < b.key ? 1 : -1));

  if (items.length === 0) {
    return (
      <EmptyState title="Nothing recorded yet">
        The bridge records stage changes from the CRM's webhooks and moves made here.
      </EmptyState>
    );
  }
  return (
    <ol className="guests-timeline" data-testid="guest-timeline">
      {items.map((item) => (
        <li key={item.key} className="guests-tl-item">
          <time className="guests-tl-time small muted" dateTime={item.at} title={formatDateTime(item.at)}>
            {formatRelative(item.at, now)}
          </time>
          <div className="guests-tl-body">{item.node}</div>
        </li>
      ))}
    </ol>
  );
}

function RunEntry({ guestId, run }: { guestId: string; run: WorkflowRun }) {
  return (
    <>
      <span className="guests-tl-kind guests-tl-workflow">Workflow</span>
      <span className="guests-run" data-testid={`run-${run.workflow}`}>
        <span className="mono">{run.workflow}</span>{' '}
        <StatusPill tone={runTone(run.status)}>{runLabel(run)}</StatusPill>
        <span className="small muted">
          {' '}
          {run.trigger === 'run-again' ? 'run again by the operator' : 'on stage change'}
          {run.attempts > 1 ? ` · ${run.attempts} attempts` : ''}
        </span>
        {run.httpStatus ? <Details>n8n answered HTTP {run.httpStatus}</Details> : null}
        {run.message ? (
          <span className={`guests-run-message ${run.status === 'failed' ? 'guests-run-failed' : ''}`}>
            {run.message}
          </span>
        ) : null}
        {run.hint ? <span className="guests-run-hint">Hint: {run.hint}</span> : null}
      </span>
      {run.status !== 'queued' ? (
        <RunButton
          guestId={guestId}
          stage={run.stage}
          label={run.status === 'failed' ? 'Retry' : 'Run again'}
        />
      ) : null}
    </>
  );
}

function RunButton({ guestId, stage, label }: { guestId: string; stage: WorkflowStage; label: string }) {
  const runAgain = useRunAgain();
  return (
    <span className="guests-tl-action">
      <button
        type="button"
        className="button button-small"
        disabled={runAgain.isPending}
        onClick={() => runAgain.mutate({ id: guestId, stage })}
      >
        {runAgain.isPending ? 'Queuing…' : label}
      </button>
      {runAgain.isError ? <ActionError className="field-problem small" error={runAgain.error} /> : null}
    </span>
  );
}
