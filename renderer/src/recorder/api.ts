import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  nextProduction,
  addRecorderMark,
  deleteRecorderMark,
  getRecorderFilename,
  getRecorderStatus,
  listRecorderTakes,
  renameRecorderMark,
  setRecorderFilename,
} from '../../../shared/api/recorder.js';
import { driveSimulatedObs } from '../../../shared/api/sandbox.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** GET /api/recorder/filename: the held name (null when none), its state with OBS, what OBS will use. */
export function useRecorderFilename() {
  return useQuery(recorderFilenameQuery);
}

/** useRecorderFilename's query, for starting it before a page renders (overview/prefetch.ts). */
export const recorderFilenameQuery = queryOptions({
  queryKey: queryKeys.recorderFilename,
  queryFn: ({ signal }) => callApi(getRecorderFilename, { signal }),
});

/** GET /api/recorder/status: connection to OBS, recording or not, the next filename. */
export function useRecorderStatus() {
  return useQuery({
    queryKey: queryKeys.recorderStatus,
    queryFn: ({ signal }) => callApi(getRecorderStatus, { signal }),
    // Events refresh it; the poll only keeps "since" and a reconnect countdown honest.
    refetchInterval: 15_000,
  });
}

/** GET /api/recorder/takes: takes newest first with their marks, and marks made with no take. */
export function useRecorderTakes() {
  return useQuery({
    queryKey: queryKeys.recorderTakes,
    queryFn: ({ signal }) => callApi(listRecorderTakes, { query: { limit: 50 }, signal }),
  });
}

function useRecorderRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.recorderFilename }),
      queryClient.invalidateQueries({ queryKey: queryKeys.recorderStatus }),
      queryClient.invalidateQueries({ queryKey: queryKeys.recorderTakes }),
    ]);
}

/** POST /api/recorder/filename; refreshes the recorder on success. Rejects with ApiError (400: the rule). */
export function useSetRecorderFilename() {
  const refresh = useRecorderRefresh();
  return useMutation({
    mutationFn: (body: { filename: string; contentProductionId?: string }) =>
      callApi(setRecorderFilename, { body }),
    onSuccess: refresh,
  });
}

/** POST /api/recorder/marks. */
export function useAddMark() {
  const refresh = useRecorderRefresh();
  return useMutation({
    mutationFn: (label: string) => callApi(addRecorderMark, { body: label ? { label } : {} }),
    onSuccess: refresh,
  });
}

/** PUT /api/recorder/marks/:markId: 409 when someone renamed it since `previousLabel` was shown. */
export function useRenameMark() {
  const refresh = useRecorderRefresh();
  return useMutation({
    mutationFn: (edit: { markId: number; label: string; previousLabel: string | null }) =>
      callApi(renameRecorderMark, {
        params: { markId: edit.markId },
        body: { label: edit.label, previousLabel: edit.previousLabel },
      }),
    onSettled: refresh,
  });
}

/** DELETE /api/recorder/marks/:markId. */
export function useDeleteMark() {
  const refresh = useRecorderRefresh();
  return useMutation({
    mutationFn: (markId: number) => callApi(deleteRecorderMark, { params: { markId } }),
    onSettled: refresh,
  });
}

/** POST /api/sandbox/obs: a button of the simulated OBS. */
export function usePressSimulatedObs() {
  const refresh = useRecorderRefresh();
  return useMutation({
    mutationFn: (action: 'start' | 'stop' | 'pause' | 'resume' | 'drop') =>
      callApi(driveSimulatedObs, { body: { action } }),
    onSuccess: refresh,
  });
}

/** GET /api/recorder/next-production: the next scheduled production and the name the spec's rule gives it. */
export function useNextProduction() {
  return useMutation({ mutationFn: () => callApi(nextProduction, {}) });
}
