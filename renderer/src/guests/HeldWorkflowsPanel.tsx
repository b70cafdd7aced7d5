import { Link } from '../hash-router.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { useGuestHolds } from './api.js';
import { waitingText } from './holds-format.js';
import './guests.css';

/** The Overview's view of held guest workflows (DESIGN §6.8): how many, whose, waiting for what. */
export function HeldWorkflowsPanel() {
  const holds = useGuestHolds();
  const now = useNow(60_000);
  return (
    <Panel
      title="Guest emails on hold"
      testId="overview-holds"
      actions={
        <Link className="panel-link" to="/guests">
          Guests
        </Link>
      }
    >
      <QueryContent query={holds} what="the held guest workflows" skeletonLines={2}>
        {(data) =>
          data.data.length === 0 ? (
            <EmptyState title="Nothing on hold">
              A guest workflow whose email would go out with empty lines waits here until the CRM has the
              values.
            </EmptyState>
          ) : (
            <>
              <p className="quota-left">
                <span className="number-value number-warn">{data.data.length}</span>{' '}
                {data.data.length === 1 ? 'workflow waits' : 'workflows wait'} for values
              </p>
              <ul className="overview-holds">
                {data.data.map((hold) => (
                  <li key={hold.id}>
                    <strong>{hold.guestName ?? 'A guest'}</strong>{' '}
                    <span className="muted small">{hold.workflow}</span> waiting for {waitingText(hold)}{' '}
                    <span className="muted small" title={formatDateTime(hold.createdAt)}>
                      · held {formatRelative(hold.createdAt, now)}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </QueryContent>
    </Panel>
  );
}
