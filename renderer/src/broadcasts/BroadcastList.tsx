import { useState } from 'react';
import { columnLabels } from '../components/column-labels.js';
import type { BroadcastRecord } from '../../../shared/api/broadcasts.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, Spinner } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatClock, useNow } from '../format.js';
import { useBroadcasts, useBroadcastStatus, useDeleteBroadcast } from './api.js';
import type { BroadcastList as BroadcastListData } from './api.js';
import { broadcastTone, formatViewers, sortBroadcasts } from './format.js';
import { LocalTime } from '../components/LocalTime.js';

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

function BroadcastTable({ records }: { records: readonly BroadcastRecord[] }) {
  const now = useNow(30_000);
  return (
    <div className="table-wrap">
      <table ref={columnLabels} className="table bc-table">
        <thead>
          <tr>
            <th>Broadcast</th>
            <th>Starts</th>
            <th>Status</th>
            <th className="num">Viewers</th>
            <th>Links</th>
          </tr>
        </thead>
        <tbody>
          {sortBroadcasts(records, now).map((record) => (
            <BroadcastRow key={record.id} record={record} now={now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BroadcastRow({ record, now }: { record: BroadcastRecord; now: number }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteBroadcast();
  const live = record.status === 'live';
  return (
    <tr data-testid="broadcast-row" data-name={record.name} className={live ? 'bc-row-live' : undefined}>
      <td>
        <div className="bc-name">{record.name}</div>
        <div className="muted small">
          {record.channelId ? `channel ${record.channelId}` : 'default channel'}
          {record.contentProductionName && record.contentProductionName !== record.name
            ? ` · ${record.contentProductionName}`
            : ''}
        </div>
      </td>
      <td>
        {record.scheduledAt ? (
          <LocalTime iso={record.scheduledAt} relativeTo={now} className="bc-when" />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>
        <StatusPill tone={broadcastTone(record.status)}>
          <span data-testid="broadcast-status">{record.status ?? 'unknown'}</span>
        </StatusPill>
        {live && record.streamhostId ? <StreamHealth broadcastId={record.streamhostId} /> : null}
      </td>
      <td className="num mono" data-testid="broadcast-viewers">
        {formatViewers(record.viewerCount)}
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
        {record.streamhostId && !confirming ? (
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
        ) : null}
        {confirming && record.streamhostId ? (
          <ConfirmDialog
            title={`Delete ${record.name}${live ? ' while it is live' : ''}?`}
            confirmLabel="Yes, delete"
            pendingLabel="Deleting…"
            pending={remove.isPending}
            error={remove.isError ? remove.error : undefined}
            onConfirm={() =>
              remove.mutate(record.streamhostId ?? '', { onSuccess: () => setConfirming(false) })
            }
            onCancel={() => setConfirming(false)}
          >
            <p>
              The host deletes it, and the bridge will remove its CRM record.
              {live ? ' It is live: viewers will lose the stream now.' : ''}
            </p>
          </ConfirmDialog>
        ) : null}
      </td>
    </tr>
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
      {autoSync.active
        ? `Live and upcoming broadcasts are read from the host every ${autoSync.intervalS} s.`
        : 'Every broadcast is complete: the automatic sync rests until a new one is created.'}
      {last
        ? ` Last ${last.scope === 'all' ? 'full sync' : 'check'} ${formatClock(last.at)}: ${last.synced} examined, ${last.updated} updated${last.errors ? `, ${last.errors} error(s)` : ''}.`
        : ''}
    </p>
  );
}
