import { z } from 'zod';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { useSandboxReceived, useWorkflowRuns } from './api.js';
import { runLabel, runTone } from './format.js';

/** The latest workflow runs of every guest. */
export function WorkflowRunsPanel({ onSelect }: { onSelect: (guestId: string) => void }) {
  const runs = useWorkflowRuns();
  const now = useNow(30_000);
  return (
    <Panel title="Recent workflows" testId="guests-runs">
      <QueryContent query={runs} what="workflow runs">
        {(data) =>
          data.data.length === 0 ? (
            <EmptyState title="No workflow started yet">
              A guest moving into Confirmed, Scheduled, Recorded or Published starts the workflow of that
              name.
            </EmptyState>
          ) : (
            <ul className="guests-runs">
              {data.data.map((run) => (
                <li key={run.id} className="guests-runs-item">
                  <div className="guests-runs-line">
                    <button type="button" className="link-button" onClick={() => onSelect(run.guestId)}>
                      {run.guestName ?? run.guestId}
                    </button>
                    <span className="mono small">{run.workflow}</span>
                    <StatusPill tone={runTone(run.status)}>{runLabel(run)}</StatusPill>
                    <time
                      className="small muted"
                      dateTime={run.updatedAt}
                      title={formatDateTime(run.updatedAt)}
                    >
                      {formatRelative(run.updatedAt, now)}
                    </time>
                  </div>
                  {run.status !== 'started' && run.message ? (
                    <p
                      className={`small guests-runs-message ${run.status === 'failed' ? 'guests-run-failed' : ''}`}
                    >
                      {run.message}
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </QueryContent>
    </Panel>
  );
}

/** The parts of the bridge's payload shown here (the engine keeps whatever it was sent). */
const receivedBody = z.looseObject({
  guest: z.looseObject({ name: z.string().optional() }).optional(),
  email: z.looseObject({ subject: z.string().optional() }).nullable().optional(),
});
const describeBody = (body: unknown) => {
  const parsed = receivedBody.safeParse(body);
  return parsed.success ? parsed.data : {};
};

/** Sandbox mode: what the simulated n8n received, as n8n would see it. */
export function SandboxEnginePanel() {
  const received = useSandboxReceived(true);
  const now = useNow(30_000);
  return (
    <Panel title="Automation engine (sandbox)" testId="guests-sandbox-engine">
      <QueryContent query={received} what="the sandbox engine">
        {(data) => (
          <>
            <div className="chips guests-engine-workflows">
              {data.workflows.map((workflow) => (
                <StatusPill key={workflow.name} tone={workflow.active ? 'ok' : 'neutral'}>
                  {workflow.name}
                  {workflow.active ? '' : ' (inactive)'}
                </StatusPill>
              ))}
            </div>
            {data.received.length === 0 ? (
              <EmptyState title="Nothing received yet">
                Move a guest into Confirmed to see the call the bridge makes.
              </EmptyState>
            ) : (
              <ul className="guests-runs">
                {data.received.slice(0, 8).map((run, index) => {
                  const body = describeBody(run.body);
                  return (
                    <li key={`${run.at}-${index}`} className="guests-runs-item">
                      <div className="guests-runs-line">
                        {/* The workflow by its name in n8n, not the webhook path it was called at (issue #30.4). */}
                        <span className="small">
                          Started <span className="mono">{run.workflow}</span>
                        </span>
                        <span>{body.guest?.name ?? ''}</span>
                        <time className="small muted" dateTime={run.at}>
                          {formatRelative(run.at, now)}
                        </time>
                      </div>
                      {body.email?.subject ? (
                        <p className="small muted guests-runs-message">Email: “{body.email.subject}”</p>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </>
        )}
      </QueryContent>
    </Panel>
  );
}
