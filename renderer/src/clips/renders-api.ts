import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '../../../shared/api/contract.js';
import {
  cancelRender,
  listRenders,
  makeRenderReady,
  startRender,
  type RenderRecord,
} from '../../../shared/api/renders.js';
import { useApiKey } from '../api/auth/use-api-key.js';
import { useLiveActivity } from '../api/live/use-live-activity.js';
import { bridgeUrl, callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';
import type { ClipRef } from './api.js';

export type RenderInput = BodyOf<typeof startRender>;

const rendersOf = (ref: ClipRef) => [...queryKeys.renders, ref.analysisId, ref.n] as const;

/** The renders of one suggestion, newest first; refreshed by their render.state events (event-invalidation.ts). */
export function useClipRenders(ref: ClipRef) {
  return useQuery({
    queryKey: rendersOf(ref),
    queryFn: ({ signal }) =>
      callApi(listRenders, { signal, query: { analysisId: ref.analysisId, n: ref.n, limit: 5 } }),
  });
}

/** POST …/render: queued at once; the answer is the render, its progress comes on /events. */
export function useStartRender(ref: ClipRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RenderInput) =>
      callApi(startRender, { params: { analysisId: ref.analysisId, n: ref.n }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rendersOf(ref) }),
  });
}

export function useCancelRender(ref: ClipRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (renderId: string) => callApi(cancelRender, { params: { renderId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rendersOf(ref) }),
  });
}

/** POST …/ready: the upload runs as a job; its steps come as render.ready events (event-invalidation.ts). */
export function useMakeReady(ref: ClipRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (renderId: string) => callApi(makeRenderReady, { params: { renderId }, body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rendersOf(ref) }),
  });
}

/** A running render's progress: the newest render.progress event of it, else what GET answered. */
export function useRenderProgress(render: RenderRecord): { percent: number; etaS: number | null } | null {
  const { events } = useLiveActivity();
  return useMemo(() => {
    if (render.state !== 'rendering') return null;
    for (const event of events) {
      if (event.type === 'render.progress' && event.data.renderId === render.id) {
        const fromEvent = { percent: event.data.percent, etaS: event.data.etaS };
        return render.progress && render.progress.percent > fromEvent.percent ? render.progress : fromEvent;
      }
    }
    return render.progress;
  }, [events, render]);
}

/**
 * A media route's address with the key in `?key=`: a <video> or <img> element sends no headers,
 * and fetches ranges of the file itself as it plays.
 */
export function useMediaUrl(path: string | null): string | null {
  const { key } = useApiKey();
  return path === null || key === null ? null : bridgeUrl(path, { key });
}
