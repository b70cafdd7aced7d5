import { useState } from 'react';
import { useBroadcasts } from '../broadcasts/api.js';
import { LocalTime } from '../components/LocalTime.js';
import { Panel } from '../components/Panel.js';
import { ErrorText } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { useNow } from '../format.js';
import { useLinkBroadcast, useStartBroadcastFor, type Thread } from './api.js';
import { stageTone } from './stage-tone.js';

/** The production's broadcasts: ON AIR, viewers; start one for it, or link one made elsewhere. */
export function ThreadBroadcasts({ thread }: { thread: Thread }) {
  const [mode, setMode] = useState<'none' | 'start' | 'link'>('none');
  return (
    <Panel
      title="Broadcasts"
      testId="thread-broadcasts"
      actions={
        <span className="button-row">
          <button type="button" className="button button-small" onClick={() => setMode('start')}>
            Start a broadcast for this production
          </button>
          <button type="button" className="button button-small button-ghost" onClick={() => setMode('link')}>
            Link a broadcast
          </button>
        </span>
      }
    >
      {thread.broadcasts.length === 0 ? (
        <p className="muted small">
          Not linked: no broadcast belongs to this production yet. Start one from here, or link one made on
          the Broadcasts page.
        </p>
      ) : (
        <ul className="plain-list thread-items">
          {thread.broadcasts.map((broadcast) => (
            <li key={broadcast.id}>
              <a href={`#/broadcasts?broadcast=${encodeURIComponent(broadcast.id)}`}>{broadcast.name}</a>{' '}
              {broadcast.onAir ? (
                <StatusPill tone="bad">ON AIR</StatusPill>
              ) : broadcast.status ? (
                <StatusPill tone={stageTone(broadcast.status)}>{broadcast.status}</StatusPill>
              ) : null}
              <span className="small muted">
                {' '}
                {broadcast.viewerCount} viewers
                {broadcast.peakViewers !== null ? ` · peak ${broadcast.peakViewers}` : ''}
                {broadcast.scheduledAt ? (
                  <>
                    {' · '}
                    <LocalTime iso={broadcast.scheduledAt} utc={false} />
                  </>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      {mode === 'start' ? <StartForm thread={thread} onDone={() => setMode('none')} /> : null}
      {mode === 'link' ? <LinkForm thread={thread} onDone={() => setMode('none')} /> : null}
    </Panel>
  );
}

function StartForm({ thread, onDone }: { thread: Thread; onDone: () => void }) {
  const { production } = thread;
  const [name, setName] = useState(`${production.name ?? 'Production'} Live`);
  const start = useStartBroadcastFor(production.id);
  const now = useNow(60_000);
  const future = production.scheduledDate !== null && Date.parse(production.scheduledDate) > now;
  const scheduledAt =
    future && production.scheduledDate ? production.scheduledDate : new Date(now + 3_600_000).toISOString();
  return (
    <form
      className="edit-form thread-form"
      onSubmit={(event) => {
        event.preventDefault();
        start.mutate({ name, scheduledAt }, { onSuccess: onDone });
      }}
    >
      <label className="filter filter-grow">
        <span className="field-label">Broadcast name</span>
        <input className="input" value={name} onChange={(event) => setName(event.target.value)} required />
      </label>
      <p className="small muted">
        Scheduled <LocalTime iso={scheduledAt} utc={false} />
        {future ? ' (the production’s date)' : ' (in an hour: the production has no date ahead)'}.
      </p>
      {start.isError ? <ErrorText error={start.error} /> : null}
      <span className="button-row">
        <button type="submit" className="button button-primary button-small" disabled={start.isPending}>
          {start.isPending ? 'Starting…' : 'Create the broadcast'}
        </button>
        <button type="button" className="button button-small button-ghost" onClick={onDone}>
          Cancel
        </button>
      </span>
    </form>
  );
}

function LinkForm({ thread, onDone }: { thread: Thread; onDone: () => void }) {
  const broadcasts = useBroadcasts();
  const link = useLinkBroadcast(thread.production.id);
  const [chosen, setChosen] = useState('');
  const candidates = (broadcasts.data?.data ?? []).filter(
    (b) => b.contentProductionId !== thread.production.id,
  );
  return (
    <form
      className="edit-form thread-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) link.mutate(chosen, { onSuccess: onDone });
      }}
    >
      <label className="filter filter-grow">
        <span className="field-label">Broadcast</span>
        <select className="input" value={chosen} onChange={(event) => setChosen(event.target.value)} required>
          <option value="">{broadcasts.isPending ? 'Loading the broadcasts…' : 'Choose a broadcast'}</option>
          {candidates.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
              {b.contentProductionName ? ` (now: ${b.contentProductionName})` : ''}
            </option>
          ))}
        </select>
      </label>
      {broadcasts.isError ? <ErrorText error={broadcasts.error} /> : null}
      {link.isError ? <ErrorText error={link.error} /> : null}
      <span className="button-row">
        <button
          type="submit"
          className="button button-primary button-small"
          disabled={!chosen || link.isPending}
        >
          Link it
        </button>
        <button type="button" className="button button-small button-ghost" onClick={onDone}>
          Cancel
        </button>
      </span>
    </form>
  );
}
