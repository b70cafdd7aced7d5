import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf, ResponseOf } from '../../../shared/api/contract.js';
import {
  cancelPost,
  checkPost,
  deletePost,
  getQuota,
  listPosts,
  postNowPost,
  previewPost,
  previewReschedule,
  reschedulePost,
  retryPost,
  schedulePost,
  syncPosts,
} from '../../../shared/api/posting.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** Under `queryKeys.posts`: posting events on /events refresh them all (api/live/event-invalidation.ts). */
export const postKeys = {
  all: queryKeys.posts,
  list: (from: string | null, to: string | null) => ['posts', 'list', from, to] as const,
  quota: ['posts', 'quota'] as const,
  preview: (draft: unknown) => ['posts', 'preview', draft] as const,
  changePreview: (edit: unknown) => ['posts', 'change-preview', edit] as const,
};

export type ScheduleInput = BodyOf<typeof schedulePost>;
export type Scheduled = ResponseOf<typeof schedulePost>;
export type PreviewInput = BodyOf<typeof previewPost>;
export type RescheduleInput = BodyOf<typeof reschedulePost>;

/** Live updates come from /events; polling is the fallback. */
const POLL_MS = 20_000;

/** GET /api/posts: ledger + CRM, optionally one window (the week calendar). */
export function usePosts(window: { from: string; to: string } | null = null) {
  return useQuery({
    queryKey: postKeys.list(window?.from ?? null, window?.to ?? null),
    queryFn: ({ signal }) => callApi(listPosts, { signal, query: window ?? {} }),
    refetchInterval: POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/posts/quota: the plan's posts per UTC day, used and left. */
export function useQuota() {
  return useQuery({
    queryKey: postKeys.quota,
    queryFn: ({ signal }) => callApi(getQuota, { signal }),
    refetchInterval: 60_000,
  });
}

/** POST /api/posts/preview: the bridge's verdict on a draft (spacing against its ledger included). */
export function usePreview(draft: PreviewInput | null) {
  return useQuery({
    queryKey: postKeys.preview(draft),
    queryFn: ({ signal }) => callApi(previewPost, { signal, body: draft! }),
    enabled: draft !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** POST /api/posts/reschedule-preview: what an edit of a post would do and cost, before it is made. */
export function useReschedulePreview(edit: RescheduleInput | null) {
  return useQuery({
    queryKey: postKeys.changePreview(edit),
    queryFn: ({ signal }) => callApi(previewReschedule, { signal, body: edit! }),
    enabled: edit !== null,
    staleTime: 10_000,
  });
}

function useRefreshPosts() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: postKeys.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.health });
  };
}

export function useSchedulePost() {
  const refresh = useRefreshPosts();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduleInput) => callApi(schedulePost, { body }),
    onSettled: (_answer, _error, body) => {
      refresh();
      // A post made for a production is in its thread now (issue #44.2): the page read before is stale.
      if (body.contentProductionId) void queryClient.invalidateQueries({ queryKey: queryKeys.productions });
    },
  });
}

export function useCancelPost() {
  const refresh = useRefreshPosts();
  return useMutation({
    /**
     * One provider post, or several in turn (a partly failed post whose platforms went out as
     * separate provider posts): each through the dashboard's cancel, which keeps the ledger and
     * never deletes a live post — it answers 409 ALREADY_PUBLISHED instead (DESIGN §6.9).
     */
    mutationFn: async (ids: string | readonly string[]) => {
      const answers = [];
      for (const id of typeof ids === 'string' ? [ids] : ids) {
        answers.push(await callApi(cancelPost, { body: { id } }));
      }
      return answers;
    },
    onSettled: refresh,
  });
}

/** POST /postsvc/delete: takes a live post down from its platforms — only when the operator asks by name. */
export function useDeleteLivePost() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (id: string) => callApi(deletePost, { body: { id } }),
    onSettled: refresh,
  });
}

/** POST /api/posts/check: Check again, for a post the provider has not confirmed. */
export function useCheckAgain() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (ledgerId: number) => callApi(checkPost, { body: { ledgerId } }),
    onSettled: refresh,
  });
}

export function useRetryPost() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (target: { socialPostId: string } | { ledgerId: number }) =>
      callApi(retryPost, { body: target }),
    onSettled: refresh,
  });
}

/** POST /api/posts/post-now: a failed CRM post whose time has passed, published at once (DESIGN §6.9). */
export function usePostNow() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (socialPostId: string) => callApi(postNowPost, { body: { socialPostId } }),
    onSettled: refresh,
  });
}

export function useSyncPosts() {
  const refresh = useRefreshPosts();
  return useMutation({ mutationFn: () => callApi(syncPosts), onSettled: refresh });
}

/** POST /api/posts/reschedule: a post edited: a scheduled one moved or replaced, a failed or cancelled one sent anew. */
export function useReschedulePost() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (body: RescheduleInput) => callApi(reschedulePost, { body }),
    onSettled: refresh,
  });
}
