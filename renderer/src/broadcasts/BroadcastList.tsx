import { useState } from 'react';
import { columnLabels } from '../components/column-labels.js';
import type { ListedBroadcast } from '../../../shared/api/broadcasts.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, ErrorText, Spinner } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatClock, formatLocal, useNow } from '../format.js';
import { useHealth } from '../api/transport/health.js';
import {
  useBroadcasts,
  useBroadcastStatus,
  useDeleteBroadcast,
  useEndBroadcast,
  useStartSandboxEncoder,
} from './api.js';
import type { BroadcastList as BroadcastListData } from './api.js';
import { broadcastTone, sortBroadcasts } from './format.js';
import { endedWords, formatViewers } from './viewer-words.js';
import { LocalTime } from '../components/LocalTime.js';
import { ProductionLink } from '../productions/ProductionLink.js';
import { addressedItemProps, useAddressedItem } from '../components/addressed-item.js';

/** The StreamhostBroadcast records: status and viewers as last synced, links, delete. */
export function BroadcastList() {
  const broadcasts = useBroadcasts();
  return (
    <Panel
      title="Broadcasts"
      testId="broadcast-list"
      actions={broadcasts.isFetching && !broadcasts.isPending ? <Spinner /> : null}
    >
      <QueryContent query={broadcasts} what="broadcasts" skeletonLines={5}>
        {(data) => (
          <>
            {data.data.length === 0 ? (
              <EmptyState title="No broadcasts yet">
                Create one with the form: it is set up at the host and recorded in the CRM.
              </EmptyState>
            ) : (
              <BroadcastTable records={data.data} />
            )}
            <AutoSyncNote autoSync={data.autoSync} />
          </>
        )}
      </QueryContent>
    </Panel>
  );
}

function BroadcastTable({ records }: { records: readonly ListedBroadcast[] }) {
  const now = useNow(30_000);
  // Reached from a production's page or the header's search (`#/broadcasts?broadcast=<record id>`).
  const focusedId = useAddressedItem('broadcast');
  return (
    <div className="table-wrap">
      <table ref={columnLabels} className="table bc-table">
        <thead>
          <tr>
            <th>Broadcast</th>
            <th>When</th>
            <th>Status</th>
            <th className="num">Viewers</th>
            <th>Links</th>
          </tr>
        </thead>
        <tbody>
          {sortBroadcasts(records, now).map((record) => (
            <BroadcastRow key={record.id} record={record} now={now} focused={record.id === focusedId} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BroadcastRow({ record, now, focused }: { record: ListedBroadcast; now: number; focused: boolean }) {
  const live = record.status === 'live';
  const hostId = record.streamhostId;
  const className = [live ? 'bc-row-live' : '', focused ? 'bc-row-focused' : ''].join(' ').trim();
  return (
    <tr
      {...addressedItemProps(focused)}
      data-testid="broadcast-row"
      data-name={record.name}
      className={className || undefined}
    >
      <td>
        <div className="bc-name">{record.name}</div>
        <div className="muted small">
          {record.channelId ? `channel ${record.channelId}` : 'default channel'}
          {record.contentProductionName && record.contentProductionName !== record.name
            ? ` · ${record.contentProductionName}`
            : ''}
        </div>
        <ProductionLink id={record.contentProductionId} name={record.contentProductionName} />
      </td>
      <td>
        {record.status === 'complete' ? (
          <EndedWhen record={record} />
        ) : record.scheduledAt ? (
          <LocalTime iso={record.scheduledAt} relativeTo={now} className="bc-when" />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        <StatusPill tone={broadcastTone(record.status)}>
          <span data-testid="broadcast-status">{record.status ?? 'unknown'}</span>
        </StatusPill>
        {live && hostId ? <StreamHealth broadcastId={hostId} /> : null}
      </td>
      <td className="num mono" data-testid="broadcast-viewers">
        {record.status === 'complete' ? (
          record.run ? (
            <span title="The most viewers at once while it was live">
              {formatViewers(record.run.peakViewers)} <span className="muted small">peak</span>
            </span>
          ) : (
            <span className="muted" title="The bridge did not see it live">
              —
            </span>
          )
        ) : (
          formatViewers(record.viewerCount)
        )}
        {live && record.run ? (
          <div className="muted small">peak {formatViewers(record.run.peakViewers)}</div>
        ) : null}
      </td>
      <td className="bc-links">
        <div>
          {record.embedUrl ? (
            <a href={record.embedUrl} target="_blank" rel="noreferrer">
              Embed
            </a>
          ) : null}
          {record.dashboardUrl ? (
            <a href={record.dashboardUrl} target="_blank" rel="noreferrer">
              Dashboard
            </a>
          ) : null}
          {!record.embedUrl && !record.dashboardUrl ? <span className="muted">—</span> : null}
        </div>
        {hostId ? (
          <div className="bc-actions">
            {live ? <EndAction record={record} broadcastId={hostId} /> : null}
            <SandboxEncoder record={record} broadcastId={hostId} />
            <DeleteAction record={record} broadcastId={hostId} live={live} />
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * A complete broadcast: when it ended, how long it ran, peak and average viewers, as the bridge
 * saw it live (the host then reports 0 viewers and no end); said so when the bridge never saw it live.
 */
function EndedWhen({ record }: { record: ListedBroadcast }) {
  const words = record.run ? endedWords(record, record.run) : null;
  if (words) {
    return (
      <div className="bc-ended" data-testid="broadcast-ended">
        {words}
      </div>
    );
  }
  return (
    <div className="bc-ended" data-testid="broadcast-ended">
      Ended{record.startedAt ? ` · started ${formatLocal(record.startedAt)}` : ''}
      <div className="muted small">The bridge did not see it live: no viewer figures.</div>
    </div>
  );
}

/** End (DESIGN §5.3): the host's transition to complete; the broadcast stays listed. */
function EndAction({ record, broadcastId }: { record: ListedBroadcast; broadcastId: string }) {
  const [confirming, setConfirming] = useState(false);
  const end = useEndBroadcast();
  return (
    <>
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          end.reset();
          setConfirming(true);
        }}
      >
        End
      </button>
      {confirming ? (
        <ConfirmDialog
          title={`End ${record.name} now?`}
          confirmLabel="Yes, end it"
          pendingLabel="Ending…"
          destructive
          pending={end.isPending}
          error={end.isError ? end.error : undefined}
          onConfirm={() => end.mutate(broadcastId, { onSuccess: () => setConfirming(false) })}
          onCancel={() => setConfirming(false)}
        >
          <p>
            It is live: the stream stops for viewers. The host keeps the broadcast as complete, its recording
            stays watchable, and it stays listed here.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** Delete at the host and in the CRM, asked in red; for a live broadcast the question names it live (DESIGN §6.9). */
function DeleteAction({
  record,
  broadcastId,
  live,
}: {
  record: ListedBroadcast;
  broadcastId: string;
  live: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteBroadcast();
  return (
    <>
      <button
        type="button"
        className="button button-small bc-delete"
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        Delete
      </button>
      {confirming ? (
        <ConfirmDialog
          title={live ? `Delete ${record.name} while it is live?` : `Delete ${record.name}?`}
          confirmLabel={live ? 'Delete the live broadcast' : 'Yes, delete'}
          pendingLabel="Deleting…"
          pending={remove.isPending}
          destructive
          error={remove.isError ? remove.error : undefined}
          onConfirm={() => remove.mutate(broadcastId, { onSuccess: () => setConfirming(false) })}
          onCancel={() => setConfirming(false)}
        >
          {live ? (
            <p>
              <strong>It is live now:</strong> viewers lose the stream at once, the host deletes the broadcast
              and its recording, and the bridge removes its CRM record. To stop it and keep it, use End
              instead.
            </p>
          ) : (
            <p>The host deletes it, and the bridge will remove its CRM record.</p>
          )}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** Sandbox mode: the simulated encoder that takes a broadcast live (nothing goes live by itself). */
function SandboxEncoder({ record, broadcastId }: { record: ListedBroadcast; broadcastId: string }) {
  const sandbox = useHealth().data?.sandbox === true;
  const start = useStartSandboxEncoder();
  if (!sandbox || !['created', 'ready', 'testing'].includes(record.status ?? '')) return null;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        title="Sandbox: connect the simulated encoder, as a studio's encoder would; the host then reports the broadcast live"
        disabled={start.isPending}
        onClick={() => start.mutate(broadcastId)}
      >
        {start.isPending ? <Spinner label="Connecting…" /> : 'Start encoder'}
      </button>
      {start.isError ? (
        <span className="field-error small" role="alert">
          <ErrorText error={start.error} />
        </span>
      ) : null}
    </>
  );
}

/** Stream health straight from the host, for live rows only. */
function StreamHealth({ broadcastId }: { broadcastId: string }) {
  const status = useBroadcastStatus(broadcastId);
  if (!status.data) return null;
  const { streamHealth } = status.data.broadcast;
  return streamHealth ? <div className="muted small">health: {streamHealth}</div> : null;
}

function AutoSyncNote({ autoSync }: { autoSync: BroadcastListData['autoSync'] }) {
  const last = autoSync.lastRun;
  return (
    <p className="muted small bc-note" data-testid="auto-sync-note">
      {!autoSync.active
        ? 'Every broadcast is complete: the automatic sync rests until a new one is created.'
        : autoSync.intervalS <= 5
          ? `A broadcast is about to start or on air: the host is read every ${autoSync.intervalS} s.`
          : `Upcoming broadcasts are read from the host every ${autoSync.intervalS} s, and every 5 s from 10 min before a start until it is over.`}
      {last
        ? ` Last ${last.scope === 'all' ? 'full sync' : 'check'} ${formatClock(last.at)}: ${last.synced} examined, ${last.updated} updated${last.errors ? `, ${last.errors} error(s)` : ''}.`
        : ''}
    </p>
  );
}
