import { Link } from '../hash-router.js';
import type { HealthResponse, PeerHealth, PeerName } from '../../../shared/api/health.js';
import { peerNames } from '../../../shared/api/health.js';
import { useActivity } from '../activity/api.js';
import { useHealth } from '../api/transport/health.js';
import { isOutageError } from '../api/outage/outage-recovery.js';
import { useLiveActivity } from '../api/live/use-live-activity.js';
import { ActivityList, mergeActivity } from '../activity/ActivityList.js';
import { LiveIndicator } from '../components/LiveIndicator.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { RecorderCard } from '../recorder/RecorderCard.js';
import { RecorderPanel } from '../recorder/RecorderPanel.js';
import { useRecorderFilename } from '../recorder/api.js';
import { HeldWorkflowsPanel } from '../guests/HeldWorkflowsPanel.js';
import { useGuestHolds } from '../guests/api.js';
import { Details, EmptyState, ErrorState, Skeleton } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { PeerStatePill, peerTone } from '../components/PeerStatePill.js';
import { peerCardWords, peerNamesInWords } from '../api/words.js';
import type { Tone } from '../components/StatusPill.js';
import { errorMessage } from '../api/transport/client.js';
import { AlarmBanner } from '../alarms/AlarmBanner.js';
import { formatClock, formatDateTime, formatDuration, formatRelative, useNow } from '../format.js';
import { CatchUpPanel } from './CatchUpPanel.js';
import { FEED_SIZE } from './prefetch.js';
import { OVERVIEW_DATA_MARK, useShownMark } from './shown-mark.js';
import { FirstStepPanel } from './FirstStepPanel.js';

const peerRoles: Record<PeerName, string> = {
  crm: 'EspoCRM records and webhooks',
  postsvc: 'social posts and analytics',
  gateway: 'platform uploads and broadcasts',
  automation: 'guest workflows (n8n)',
  obs: 'recordings and their names (OBS Studio)',
};

export function OverviewPage() {
  const health = useHealth();
  // The panels' own queries (the same keys: nothing is asked twice), read here for one thing:
  // marking when the whole page first shows data (shown-mark.ts).
  const recorder = useRecorderFilename();
  const holds = useGuestHolds();
  const recent = useActivity({}, FEED_SIZE);
  useShownMark(
    OVERVIEW_DATA_MARK,
    health.data !== undefined &&
      recorder.data !== undefined &&
      holds.data !== undefined &&
      recent.data !== undefined,
  );
  return (
    <>
      <PageHeader
        title="Overview"
        description="The bridge, the systems it talks to, and what is happening now."
      />
      <FirstStepPanel />
      {health.isPending ? (
        <div className="grid grid-4">
          {Array.from({ length: 4 }, (_, index) => (
            <Panel key={index} title={<span className="skeleton-line skeleton-title" />}>
              <Skeleton lines={2} label="Loading bridge health" />
            </Panel>
          ))}
        </div>
      ) : health.isError && health.data === undefined ? (
        <Panel title="Bridge">
          <ErrorState
            title="Couldn't reach the bridge"
            error={health.error}
            onRetry={() => void health.refetch()}
          />
        </Panel>
      ) : health.data ? (
        <>
          {/* Unreachable is said above every page (shell/OutageBanner.tsx); this is for the bridge's own failures. */}
          {health.isError && !isOutageError(health.error) ? (
            <div className="banner banner-bad" role="alert">
              <div>
                <strong>Lost contact with the bridge.</strong> Showing what it last reported, at{' '}
                {formatClock(new Date(health.dataUpdatedAt).toISOString())}.
                <span className="banner-detail">{errorMessage(health.error)}</span>
              </div>
              <button type="button" className="button button-small" onClick={() => void health.refetch()}>
                Retry
              </button>
            </div>
          ) : null}
          <AlarmBanner alarms={health.data.alarms ?? []} />
          <HealthPanels health={health.data} reachable={!health.isError} />
        </>
      ) : null}
      <div className="grid grid-2">
        <div className="grid grid-stack">
          <CatchUpPanel />
          <RecorderCard />
          <RecorderPanel />
          <HeldWorkflowsPanel />
        </div>
        <LiveFeedPanel />
      </div>
    </>
  );
}

function HealthPanels({ health, reachable }: { health: HealthResponse; reachable: boolean }) {
  return (
    <>
      <div className="grid grid-4">
        <BridgePanel health={health} reachable={reachable} />
        <JobsPanel jobs={health.jobs} />
        <QuotaPanel quota={health.quota} />
        <CollectionPanel collection={health.lastCollection} />
      </div>
      <Panel title="Peers" testId="peers-panel">
        {health.peers ? (
          <div className="peer-grid">
            {peerNames.map((name) => {
              const peer = health.peers?.[name];
              return peer ? <PeerTile key={name} name={name} peer={peer} reachable={reachable} /> : null;
            })}
          </div>
        ) : (
          <EmptyState title="Peer details are hidden">
            The bridge answered without them, which means it did not accept this dashboard's key.
          </EmptyState>
        )}
      </Panel>
    </>
  );
}

function BridgePanel({ health, reachable }: { health: HealthResponse; reachable: boolean }) {
  return (
    <Panel title="Bridge" testId="bridge-panel">
      <div className="stat-row">
        {reachable ? (
          <StatusPill tone={health.status === 'ok' ? 'ok' : 'warn'}>
            {health.status === 'ok' ? 'OK' : 'Degraded'}
          </StatusPill>
        ) : (
          <StatusPill tone="bad">Unreachable</StatusPill>
        )}
        {health.sandbox ? <StatusPill tone="info">Sandbox peers</StatusPill> : null}
      </div>
      <dl className="facts">
        <dt>Version</dt>
        <dd className="mono">{health.version}</dd>
        <dt>Uptime</dt>
        <dd>{formatDuration(health.uptimeS)}</dd>
        <dt>Live events</dt>
        <dd>
          <LiveIndicator compact />
        </dd>
      </dl>
    </Panel>
  );
}

function JobsPanel({ jobs }: { jobs: HealthResponse['jobs'] }) {
  return (
    <Panel
      title="Job queue"
      testId="jobs-panel"
      actions={
        <Link className="panel-link" to="/activity">
          Open
        </Link>
      }
    >
      {jobs ? (
        <div className="numbers">
          <Stat label="pending" value={jobs.pending} />
          <Stat label="running" value={jobs.running} />
          <Stat label="failed" value={jobs.failed} tone={jobs.failed > 0 ? 'bad' : undefined} />
        </div>
      ) : (
        <EmptyState title="Not reported">The bridge did not include the job queue.</EmptyState>
      )}
    </Panel>
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone?: Tone }) {
  return (
    <div className={`number ${tone ? `number-${tone}` : ''}`.trim()}>
      <span className="number-value">{value}</span>
      <span className="number-label">{label}</span>
    </div>
  );
}

function QuotaPanel({ quota }: { quota: HealthResponse['quota'] }) {
  const now = useNow(60_000);
  if (!quota) {
    return (
      <Panel title="Posting quota" testId="quota-panel">
        <p className="big-muted">Not yet known</p>
        <p className="muted small">Known once the bridge has talked to the posting provider today.</p>
      </Panel>
    );
  }
  const usedShare = quota.limit > 0 ? Math.min(1, quota.used / quota.limit) : 1;
  const tone: Tone = quota.left === 0 ? 'bad' : usedShare >= 0.8 ? 'warn' : 'ok';
  return (
    <Panel title="Posting quota" testId="quota-panel">
      <p className="quota-left">
        <span className={`number-value number-${tone}`}>{quota.left}</span> posts left today
      </p>
      <div
        className={`meter meter-${tone}`}
        role="meter"
        aria-valuemin={0}
        aria-valuemax={quota.limit}
        aria-valuenow={quota.used}
      >
        <span style={{ width: `${usedShare * 100}%` }} />
      </div>
      <p className="muted small">
        {quota.used} of {quota.limit} used · plan {quota.plan} · resets{' '}
        <span title={formatDateTime(quota.resetsAt)}>{formatRelative(quota.resetsAt, now)}</span>
      </p>
    </Panel>
  );
}

function collectionTone(status: string): Tone {
  const s = status.toLowerCase();
  if (s.includes('fail') || s.includes('error')) return 'bad';
  if (s.includes('run') || s.includes('progress') || s.includes('pending')) return 'info';
  if (s.includes('partial')) return 'warn';
  if (s.includes('succe') || s.includes('done') || s.includes('complete') || s === 'ok') return 'ok';
  return 'neutral';
}

function CollectionPanel({ collection }: { collection: HealthResponse['lastCollection'] }) {
  const now = useNow(60_000);
  return (
    <Panel title="Last collection" testId="collection-panel">
      {collection ? (
        <>
          <div className="stat-row">
            <StatusPill tone={collectionTone(collection.status)}>{collection.status}</StatusPill>
            <span className="muted small">run #{collection.id}</span>
          </div>
          <dl className="facts">
            <dt>Started</dt>
            <dd title={formatDateTime(collection.startedAt)}>{formatRelative(collection.startedAt, now)}</dd>
            <dt>Finished</dt>
            <dd>
              {collection.finishedAt ? (
                <span title={formatDateTime(collection.finishedAt)}>
                  {formatRelative(collection.finishedAt, now)}
                </span>
              ) : (
                'still running'
              )}
            </dd>
          </dl>
        </>
      ) : (
        <>
          <p className="big-muted">None yet</p>
          <p className="muted small">
            Analytics are collected every few hours; the first run has not happened.
          </p>
        </>
      )}
    </Panel>
  );
}

/**
 * A peer's card: its one word (issue #38.3), the latency of its last answer (none while it cannot
 * be reached), and its last error in words (issue #40.2), said as past once the peer answers
 * again; the peer's raw message behind Details. While the bridge
 * cannot be reached its last report is no longer known to hold.
 */
function PeerTile({ name, peer, reachable }: { name: PeerName; peer: PeerHealth; reachable: boolean }) {
  const now = useNow(15_000);
  const tone = reachable ? peerTone(peer) : 'neutral';
  const said = peerCardWords(name, peer);
  return (
    <article
      className={`peer peer-${tone}`}
      data-testid={`peer-${name}`}
      data-state={peer.configured ? (peer.state ?? 'unknown') : 'not-configured'}
    >
      <header className="peer-header">
        <h3 className="peer-name">{peerNamesInWords[name]}</h3>
        {reachable ? (
          <PeerStatePill peer={peer} />
        ) : (
          <StatusPill
            tone="neutral"
            title="The bridge cannot be reached, so neither is its view of this peer"
          >
            Unknown
          </StatusPill>
        )}
      </header>
      <p className="muted small peer-role">{peerRoles[name]}</p>
      <dl className="facts facts-tight">
        <dt>Latency</dt>
        <dd>{peer.latencyMs === null || !peer.configured ? '—' : `${Math.round(peer.latencyMs)} ms`}</dd>
        <dt>Checked</dt>
        <dd>
          {peer.checkedAt ? (
            <span title={formatDateTime(peer.checkedAt)}>{formatRelative(peer.checkedAt, now)}</span>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <p className="peer-url mono" title="Address the bridge uses for this peer">
        {peer.url ?? <span className="muted">no address configured</span>}
      </p>
      {said === null ? null : (
        <div
          className={
            !said.current
              ? 'peer-error-past muted small'
              : peer.state === 'throttled'
                ? 'peer-error peer-error-warn'
                : 'peer-error'
          }
          data-testid={said.current ? 'peer-error' : 'peer-past-error'}
        >
          {said.words}{' '}
          <Details testId="peer-error-details">
            {peer.lastError}
            {peer.lastErrorAt ? ` · ${formatDateTime(peer.lastErrorAt)}` : null}
          </Details>
        </div>
      )}
    </article>
  );
}

function LiveFeedPanel() {
  const recent = useActivity({}, FEED_SIZE);
  const live = useLiveActivity();
  return (
    <Panel
      title="Live activity"
      testId="live-feed"
      actions={
        <>
          <LiveIndicator />
          <Link className="panel-link" to="/activity">
            All activity
          </Link>
        </>
      }
    >
      <QueryContent query={recent} what="recent activity" skeletonLines={5}>
        {(data) => {
          const rows = mergeActivity(live.events, data.pages[0]?.data ?? []).slice(0, FEED_SIZE);
          return rows.length === 0 ? (
            <EmptyState title="Quiet so far">
              Webhook deliveries, finished jobs and collection runs appear here the moment they happen.
            </EmptyState>
          ) : (
            <ActivityList rows={rows} compact />
          );
        }}
      </QueryContent>
    </Panel>
  );
}
