import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { listPosts } from '../../../../shared/api/posting.js';
import { callApi } from '../../api/transport/client.js';
import { postKeys } from '../api.js';
import { CALENDAR_LIMIT } from './model.js';

/**
 * GET /api/posts for the calendar's window, up to the bridge's limit (a busy month holds more
 * than the list's default 300). Under `postKeys.all`: posting events and every posting action
 * refresh it.
 */
export function useCalendarPosts(window: { from: string; to: string }) {
  return useQuery({
    queryKey: [...postKeys.all, 'calendar', window.from, window.to] as const,
    queryFn: ({ signal }) => callApi(listPosts, { signal, query: { ...window, limit: CALENDAR_LIMIT } }),
    refetchInterval: 20_000,
    placeholderData: keepPreviousData,
    // A month holds up to 1,000 posts: comparing each answer with the last, deep, costs more than
    // rendering the month again (it shows at most three posts a day).
    structuralSharing: false,
  });
}
