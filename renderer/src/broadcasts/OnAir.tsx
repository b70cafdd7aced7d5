import { useQuery } from '@tanstack/react-query';
import { listBroadcasts } from '../../../shared/api/broadcasts.js';
import { callApi } from '../api/transport/client.js';
import { broadcastKeys } from './api.js';

/**
 * The header's ON AIR sign while any broadcast is live. It shares the broadcast list's query
 * without polling it: `broadcast.status`, `broadcast.created` and `broadcast.deleted` events
 * refresh the list (api/live/event-invalidation.ts).
 */
export function OnAir() {
  const broadcasts = useQuery({
    queryKey: broadcastKeys.list,
    queryFn: ({ signal }) => callApi(listBroadcasts, { signal }),
  });
  const live = broadcasts.data?.data.filter((record) => record.status === 'live') ?? [];
  if (live.length === 0) return null;
  const names = live.map((record) => record.name).join(', ');
  return (
    <a className="on-air" data-testid="on-air" href="#/broadcasts" title={`Live now: ${names}`}>
      <span className="on-air-dot" aria-hidden="true" />
      ON AIR
      <span className="on-air-name">{live.length === 1 ? live[0]!.name : `${live.length} broadcasts`}</span>
    </a>
  );
}
