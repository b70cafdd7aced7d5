import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRecorderFilename, setRecorderFilename } from '../../../shared/api/recorder.js';
import { callApi } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';

/** GET /api/recorder/filename: `{filename, setAt}`, both null when none is set. */
export function useRecorderFilename() {
  return useQuery(recorderFilenameQuery);
}

/** useRecorderFilename's query, for starting it before a page renders (overview/prefetch.ts). */
export const recorderFilenameQuery = queryOptions({
  queryKey: queryKeys.recorderFilename,
  queryFn: ({ signal }) => callApi(getRecorderFilename, { signal }),
});

/** POST /api/recorder/filename; refreshes the current filename on success. Rejects with ApiError (400: the rule). */
export function useSetRecorderFilename() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (filename: string) => callApi(setRecorderFilename, { body: { filename } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.recorderFilename }),
  });
}
