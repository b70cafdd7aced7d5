import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client.js';

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
