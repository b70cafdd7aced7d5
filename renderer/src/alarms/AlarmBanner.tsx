import type { Alarm } from '../../../shared/api/health.js';
import { Link } from '../hash-router.js';
import { alarmPage } from './alarm-words.js';

/** Overview: everything overdue (DESIGN §6.9), one line each, with where to deal with it. */
export function AlarmBanner({ alarms }: { alarms: readonly Alarm[] }) {
  if (alarms.length === 0) return null;
  return (
    <div className="banner banner-bad alarm-banner" role="alert" data-testid="alarm-banner">
      <div>
        <strong>
          {alarms.length === 1 ? 'Something is overdue.' : `${alarms.length} things are overdue.`}
        </strong>
        <ul className="alarm-list">
          {alarms.map((alarm) => (
            <li key={alarm.id} data-testid="alarm">
              {alarm.message}{' '}
              <Link to={alarmPage[alarm.kind].path} className="alarm-link">
                Open {alarmPage[alarm.kind].path.slice(1)}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
