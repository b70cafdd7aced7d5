import type { CatchUpStatus } from '../../../shared/api/health.js';
import { useHealth } from '../api/transport/health.js';
import { LocalTime } from '../components/LocalTime.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Tone } from '../components/StatusPill.js';
import { useNow } from '../format.js';

/**
 * The last CRM catch-up (DESIGN §6.9): what the CRM changed while the bridge was off, listed and
 * handled at start and every few minutes. Read from GET /health's `lastCatchUp` (the Overview's
 * own health query: nothing is asked twice).
 */
export function CatchUpPanel() {
  const health = useHealth();
  return (
    <Panel title="CRM catch-up" testId="catchup-panel">
      <QueryContent query={health} what="the last catch-up" skeletonLines={3}>
        {(data) => <CatchUpBody catchUp={data.lastCatchUp ?? null} />}
      </QueryContent>
    </Panel>
  );
}

function CatchUpBody({ catchUp }: { catchUp: CatchUpStatus | null }) {
  const now = useNow(15_000);
  if (!catchUp) {
    return (
      <EmptyState title="No catch-up yet">
        The bridge lists what the CRM changed while it was off at start and then every few minutes
        (CRM_CATCHUP_MINUTES; 0 turns it off). Without a CRM configured there is nothing to catch up.
      </EmptyState>
    );
  }
  const state = catchUpState(catchUp);
  return (
    <div className="catchup">
      <div className="stat-row">
        <StatusPill tone={state.tone}>{state.label}</StatusPill>
        {catchUp.running ? <StatusPill tone="info">Catching up now</StatusPill> : null}
        {catchUp.attempt > 1 ? <span className="muted small">try {catchUp.attempt}</span> : null}
      </div>
      <dl className="facts facts-tight catchup-facts">
        <dt>Finished</dt>
        <dd>
          <LocalTime iso={catchUp.at} relativeTo={now} testId="catchup-at" />
        </dd>
        {catchUp.status === 'failed' && catchUp.lastOkAt ? (
          <>
            <dt>Last good run</dt>
            <dd>
              <LocalTime iso={catchUp.lastOkAt} relativeTo={now} />
            </dd>
          </>
        ) : null}
      </dl>
      <div className="numbers catchup-numbers">
        <Figure label="records seen" value={catchUp.seen} />
        <Figure label="acted on" value={catchUp.actedOn} />
        <Figure label="errors" value={catchUp.errors} tone={catchUp.errors > 0 ? 'bad' : undefined} />
        <Figure label="still running" value={catchUp.queued} tone={catchUp.queued > 0 ? 'info' : undefined} />
      </div>
      {catchUp.error ? (
        <p className="catchup-error" data-testid="catchup-error">
          {catchUp.status === 'failed' ? 'Failed: ' : ''}
          {catchUp.error}
        </p>
      ) : null}
      {catchUp.status === 'failed' ? (
        <p className="muted small" data-testid="catchup-retry">
          {catchUp.retryAt ? (
            <>
              Tries again at{' '}
              <LocalTime iso={catchUp.retryAt} relativeTo={now} className="local-time-inline" />
            </>
          ) : (
            'Tries again at the next start or interval.'
          )}
        </p>
      ) : null}
      {catchUp.alarm.length > 0 ? <VanishedAlarm stillHappens={catchUp.alarm} /> : null}
    </div>
  );
}

/** A mass disappearance: nothing was cancelled; the operator decides about each post still going out. */
function VanishedAlarm({ stillHappens }: { stillHappens: string[] }) {
  return (
    <div className="banner banner-bad catchup-alarm" role="alert" data-testid="catchup-alarm">
      <div>
        <strong>{stillHappens.length} tracked CRM records vanished at once: nothing was cancelled.</strong>
        <span className="banner-detail">
          Check the CRM (a wrong account or an import?). These posts will still go out; cancel them on the
          Posts page if they should not:
        </span>
        <ul className="catchup-alarm-list">
          {stillHappens.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function catchUpState(catchUp: CatchUpStatus): { tone: Tone; label: string } {
  if (catchUp.status === 'failed') return { tone: 'bad', label: 'Failed' };
  if (catchUp.alarm.length > 0) return { tone: 'bad', label: 'Needs you' };
  if (catchUp.errors > 0) return { tone: 'warn', label: 'Done with errors' };
  return { tone: 'ok', label: 'Up to date' };
}

function Figure({ label, value, tone }: { label: string; value: number; tone?: Tone }) {
  return (
    <div className="number">
      <span className={`number-value ${tone ? `number-${tone}` : ''}`.trim()}>{value}</span>
      <span className="number-label">{label}</span>
    </div>
  );
}
