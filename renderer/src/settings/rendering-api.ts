import { useQuery } from '@tanstack/react-query';
import { getRenderingSetup } from '../../../shared/api/renders.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** GET /api/settings/rendering: which FFmpeg renders clips, and the disk renders use (issue #43). */
export function useRenderingSetup() {
  return useQuery({
    queryKey: [...queryKeys.renders, 'setup'],
    queryFn: ({ signal }) => callApi(getRenderingSetup, { signal }),
  });
}
