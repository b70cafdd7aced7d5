import { guestStages, type GuestSummary } from '../../../shared/api/guests.js';
import { formatDateTime } from '../format.js';
import { StatusPill } from '../components/StatusPill.js';
import { runLabel, runTone } from './format.js';
import { missingText, waitingText } from './holds-format.js';

/** Guests per stage, one column each; a card selects the guest (its timeline opens below). */
export function StageBoard({
  guests,
  selectedId,
  onSelect,
}: {
  guests: readonly GuestSummary[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const outside = guests.filter((g) => !(guestStages as readonly string[]).includes(g.stage));
  const held = guests.filter((g) => g.hold !== null);
  return (
    <>
      {held.length > 0 ? (
        <div className="banner banner-warn guests-held-list" data-testid="guests-held">
          <div>
            <strong>
              {held.length === 1 ? '1 guest workflow is' : `${held.length} guest workflows are`} held: their
              email would go out with empty lines.
            </strong>
            <span className="banner-detail">
              {held.map((guest, index) => (
                <span key={guest.id}>
                  {index > 0 ? '; ' : ''}
                  <button type="button" className="link-button" onClick={() => onSelect(guest.id)}>
                    {guest.name}
                  </button>{' '}
                  waiting for {guest.hold ? waitingText(guest.hold) : missingText([])}
                </span>
              ))}
              . Each starts once the CRM has the values, or when you send it anyway from the guest.
            </span>
          </div>
        </div>
      ) : null}
      <div className="guests-board" data-testid="guests-board">
        {guestStages.map((stage) => {
          const here = guests.filter((g) => g.stage === stage);
          return (
            <section key={stage} className="guests-column" aria-label={`${stage}: ${here.length}`}>
              <header className="guests-column-head">
                <span>{stage}</span>
                <span className="guests-column-count">{here.length}</span>
              </header>
              {here.length === 0 ? <p className="guests-column-empty small muted">No guests</p> : null}
              {here.map((guest) => (
                <GuestCard
                  key={guest.id}
                  guest={guest}
                  selected={guest.id === selectedId}
                  onSelect={() => onSelect(guest.id)}
                />
              ))}
            </section>
          );
        })}
        {outside.length > 0 ? (
          <p className="small muted guests-board-note">
            Outside the pipeline: {outside.map((g) => `${g.name} (${g.stage || 'no stage'})`).join(', ')}
          </p>
        ) : null}
      </div>
    </>
  );
}

function GuestCard({
  guest,
  selected,
  onSelect,
}: {
  guest: GuestSummary;
  selected: boolean;
  onSelect: () => void;
}) {
  // The column names the stage, so the card only says how that stage's workflow went.
  const run = guest.workflows.find((r) => r.stage === guest.stage);
  return (
    <button
      type="button"
      className={`guests-card ${selected ? 'guests-card-selected' : ''}`}
      aria-pressed={selected}
      onClick={onSelect}
      data-testid={`guest-card-${guest.id}`}
    >
      <span className="guests-card-name">{guest.name}</span>
      <span className="small muted">
        {guest.scheduledDate ? formatDateTime(guest.scheduledDate) : 'no date yet'}
      </span>
      {guest.hold ? (
        <StatusPill
          tone="warn"
          title={
            guest.hold.reason === 'late'
              ? `${guest.hold.workflow} held: ${guest.hold.note ?? 'found late'}`
              : `${guest.hold.workflow} held: its email would go out with these empty`
          }
        >
          waiting for: {waitingText(guest.hold)}
        </StatusPill>
      ) : null}
      {run ? (
        <StatusPill
          tone={runTone(run.status)}
          title={`${run.workflow}: ${runLabel(run)}${run.message ? ` (${run.message})` : ''}`}
        >
          workflow {runLabel(run)}
        </StatusPill>
      ) : null}
    </button>
  );
}
