import { LocalTime } from '../components/LocalTime.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatDuration } from '../format.js';
import { useProduction, type Thread } from './api.js';
import { stageTone } from './stage-tone.js';
import { ThreadBroadcasts } from './ThreadBroadcasts.js';
import { ThreadClips } from './ThreadClips.js';
import { ThreadNumbers } from './ThreadNumbers.js';
import { ThreadPosts } from './ThreadPosts.js';
import { useDrawnMark } from './drawn-mark.js';

/** One production's thread, in the order a production lives (issue #42.1). */
export function ProductionThreadPage({ id }: { id: string }) {
  const thread = useProduction(id);
  return (
    <QueryContent query={thread} what="this production" skeletonLines={10}>
      {(data) => <ThreadView thread={data} />}
    </QueryContent>
  );
}

function ThreadView({ thread }: { thread: Thread }) {
  useDrawnMark(thread);
  const { production } = thread;
  const crmDown = thread.missing.some((part) => part.entity === 'ContentProduction');
  return (
    <div className="production-thread grid grid-stack" data-testid="production-thread">
      <div>
        <p className="small">
          <a href="#/productions">← All productions</a>
        </p>
        <PageHeader
          title={production.name ?? (crmDown ? 'Production (the CRM is not answering)' : '(unnamed)')}
          description={
            <>
              {[production.contentType, production.showName].filter(Boolean).join(' · ')}
              {production.scheduledDate ? (
                <>
                  {' · scheduled '}
                  <LocalTime iso={production.scheduledDate} utc={false} />
                </>
              ) : null}
            </>
          }
          actions={
            production.stage ? (
              <StatusPill tone={stageTone(production.stage)}>{production.stage}</StatusPill>
            ) : null
          }
        />
      </div>
      {thread.missing.length > 0 ? (
        <div className="banner banner-warn" role="status" data-testid="thread-missing">
          <strong>Part of this thread is missing.</strong> Shown is what the bridge knows.
          <ul className="plain-list small">
            {thread.missing.map((part) => (
              <li key={part.entity}>
                {entityWords[part.entity] ?? part.entity}: {part.reason}.
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="grid grid-2-1">
        <Panel title="Guests" testId="thread-guests">
          {thread.guests.length === 0 ? (
            <EmptyState title="No guest linked">
              A guest belongs to this production when its booking’s contentProductionId names it (set it in
              the CRM). <a href="#/guests">Guests →</a>
            </EmptyState>
          ) : (
            <ul className="plain-list thread-items">
              {thread.guests.map((guest) => (
                <li key={guest.id}>
                  <a href={`#/guests?guest=${encodeURIComponent(guest.id)}`}>{guest.name ?? guest.id}</a>{' '}
                  {guest.stage ? <StatusPill tone="info">{guest.stage}</StatusPill> : null}
                  {guest.scheduledDate ? (
                    <span className="small muted">
                      {' '}
                      records <LocalTime iso={guest.scheduledDate} utc={false} />
                    </span>
                  ) : null}
                  {guest.workflow ? (
                    <div className="small">
                      Workflow {guest.workflow.workflow}: {guest.workflow.status}
                      {guest.workflow.message ? ` — ${guest.workflow.message}` : ''}
                    </div>
                  ) : (
                    <div className="small muted">No workflow ran yet.</div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Stage history" testId="thread-stages">
          {thread.stageHistory.length === 0 ? (
            <p className="muted small">
              The bridge has seen no stage change of this production yet (it records them from the CRM’s
              webhooks).
            </p>
          ) : (
            <ol className="plain-list thread-items">
              {thread.stageHistory.map((entry) => (
                <li key={`${entry.enteredAt}-${entry.stage}`}>
                  <StatusPill tone={stageTone(entry.stage)}>{entry.stage}</StatusPill>{' '}
                  <LocalTime iso={entry.enteredAt} utc={false} />
                </li>
              ))}
            </ol>
          )}
        </Panel>
      </div>

      <ThreadBroadcasts thread={thread} />

      <Panel
        title="Takes"
        testId="thread-takes"
        actions={
          <a href={`#/recorder?production=${encodeURIComponent(thread.production.id)}`}>
            Name a recording from it →
          </a>
        }
      >
        {thread.takes.length === 0 ? (
          <EmptyState title="No take linked">
            A take belongs to this production when its name was given from it, on the Recorder page or in
            Companion. Use “Name a recording from it” above.
          </EmptyState>
        ) : (
          <ul className="plain-list thread-items">
            {thread.takes.map((take) => (
              <li key={take.id}>
                <a className="mono" href={`#/recorder?take=${take.id}`}>
                  {take.name}
                </a>{' '}
                <span className="small muted">
                  <LocalTime iso={take.startedAt} utc={false} />
                  {take.durationS !== null ? ` · ${formatDuration(take.durationS)}` : ' · recording'}
                </span>
                {take.marks.length > 0 ? (
                  <ul className="plain-list small thread-marks">
                    {take.marks.map((mark) => (
                      <li key={mark.id}>
                        <span className="mono">
                          {mark.offsetS !== null ? formatDuration(mark.offsetS) : '—'}
                        </span>{' '}
                        {mark.label ?? 'mark'}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <ThreadClips thread={thread} />
      <ThreadPosts thread={thread} />
      <ThreadNumbers thread={thread} />
    </div>
  );
}

const entityWords: Record<string, string> = {
  ContentProduction: 'The production itself',
  GuestBooking: 'Guests',
  StreamhostBroadcast: 'Broadcasts',
  Clip: 'Clips',
  SocialPost: 'Posts',
  PlatformPublish: 'Publish records',
};
