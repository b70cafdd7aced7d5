import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client.js';

/** Query keys of every area, in one place so invalidation from live events stays in step. */
export const queryKeys = {
  health: ['health'] as const,
  recorderFilename: ['recorder', 'filename'] as const,
  activity: ['activity'] as const,
  jobs: ['jobs'] as const,
  settings: ['settings'] as const,
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Refusals (4xx) are answers, not hiccups: only an unreachable or failing bridge is retried.
        retry: (failureCount, error) =>
          failureCount < 2 && (!(error instanceof ApiError) || error.isTransient),
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
}
