import type { RecorderStatus } from '../../../shared/api/recorder.js';
import { Link } from '../hash-router.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { Details, ErrorText, Spinner } from '../components/States.js';
import { obsConnectionWords } from '../api/words.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatDateTime, formatDuration, formatRelative, useNow } from '../format.js';
import { usePressSimulatedObs, useRecorderStatus } from './api.js';

/**
 * The recorder at a glance: OBS connected or not (OBS's words when not), recording or not and
 * since when. On the Recorder page in sandbox mode, the simulated OBS's buttons too.
 */
export function RecorderCard({ controls = false }: { controls?: boolean }) {
  const status = useRecorderStatus();
  return (
    <Panel
      title="OBS recorder"
      testId="recorder-card"
      actions={
        controls ? null : (
          <Link className="panel-link" to="/recorder">
            Open
          </Link>
        )
      }
    >
      <QueryContent query={status} what="the recorder status" skeletonLines={2}>
        {(data) => (
          <>
            <RecorderFacts status={data} />
            {controls && data.connection.simulated ? <SimulatedObsButtons status={data} /> : null}
          </>
        )}
      </QueryContent>
    </Panel>
  );
}

function RecorderFacts({ status }: { status: RecorderStatus }) {
  const now = useNow(1_000);
  const { connection, recording } = status;
  if (!connection.configured) {
    return (
      <div className="recorder-facts">
        <div className="stat-row">
          <StatusPill tone="neutral">No recorder</StatusPill>
        </div>
        <p className="muted small">
          The filename is held for the device to read. Set <code>RECORDER_OBS_URL</code> to send it to OBS.
        </p>
      </div>
    );
  }
  const recordingFor = recording.since ? (now - Date.parse(recording.since)) / 1000 : null;
  return (
    <div className="recorder-facts">
      <div className="stat-row">
        {connection.connected ? (
          <StatusPill tone="ok">OBS connected</StatusPill>
        ) : (
          <StatusPill tone="bad">OBS not connected</StatusPill>
        )}
        {recording.active ? (
          <StatusPill tone={recording.paused ? 'warn' : 'info'}>
            {recording.paused ? 'Paused' : 'Recording'}
          </StatusPill>
        ) : connection.connected ? (
          <StatusPill tone="neutral">Not recording</StatusPill>
        ) : null}
        {connection.simulated ? <StatusPill tone="info">Simulated OBS</StatusPill> : null}
      </div>
      <dl className="facts facts-tight">
        {recording.active && recording.since ? (
          <>
            <dt>Take</dt>
            <dd className="mono" data-testid="recorder-take">
              {recording.takeName ?? 'unknown'}
            </dd>
            <dt>Since</dt>
            <dd title={formatDateTime(recording.since)}>
              {formatDateTime(recording.since)} ({formatDuration(recordingFor ?? 0)} ago)
            </dd>
          </>
        ) : null}
        <dt>{connection.connected ? 'Connected' : 'Lost'}</dt>
        <dd>{connection.since ? formatRelative(connection.since, now) : 'not yet'}</dd>
        {!connection.connected && connection.lastError ? (
          <>
            <dt>Why</dt>
            <dd data-testid="recorder-error">
              {obsConnectionWords(connection.lastError)} <Details>{connection.lastError}</Details>
            </dd>
          </>
        ) : null}
        {!connection.connected && connection.nextAttemptAt ? (
          <>
            <dt>Next try</dt>
            <dd>{formatRelative(connection.nextAttemptAt, now)}</dd>
          </>
        ) : null}
        <dt>Address</dt>
        <dd className="mono">{connection.url}</dd>
      </dl>
    </div>
  );
}

function SimulatedObsButtons({ status }: { status: RecorderStatus }) {
  const press = usePressSimulatedObs();
  const { active, paused } = status.recording;
  const busy = press.isPending || !status.connection.connected;
  return (
    <div className="recorder-sim">
      <span className="field-label">Simulated OBS (sandbox)</span>
      <div className="button-row">
        {active ? (
          <>
            <button type="button" className="button" disabled={busy} onClick={() => press.mutate('stop')}>
              Stop recording
            </button>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => press.mutate(paused ? 'resume' : 'pause')}
            >
              {paused ? 'Resume' : 'Pause'}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => press.mutate('start')}
          >
            Start recording
          </button>
        )}
        <button
          type="button"
          className="button button-ghost"
          disabled={press.isPending}
          onClick={() => press.mutate('drop')}
          title="Close the connection as OBS quitting does: the bridge reconnects"
        >
          Drop connection
        </button>
        {press.isPending ? <Spinner /> : null}
      </div>
      {press.isError ? (
        <p className="field-error" role="alert">
          <ErrorText error={press.error} />
        </p>
      ) : null}
    </div>
  );
}
