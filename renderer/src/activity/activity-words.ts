import type { StoredActivityEvent } from '../../../shared/api/activity.js';
import { localizeInstants } from '../format.js';

/**
 * An activity event's message on screen. The bridge writes it in the names a person knows (a
 * post's first words, a guest's name, a broadcast's or episode's title: `data.subject`, issue
 * #30.4), so it is shown as it is: only its instants become local time with UTC beside them, and
 * its first letter is upper-case. The ids stay in the event's data ("Details", GET /api/activity).
 */
export function activityText(event: StoredActivityEvent): string {
  const message = localizeInstants(event.message);
  return message.charAt(0).toUpperCase() + message.slice(1);
}
