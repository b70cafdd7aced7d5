import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { analyzeClips, createDraftClip, listCrmContent } from '../../../shared/api/clips.js';
import type { ContentSummary } from '../../../shared/api/clips.js';
import type { BodyOf, ResponseOf } from '../../../shared/api/contract.js';
import { ApiError, callApi } from '../api/client.js';

export const clipKeys = {
  content: ['clips', 'content'] as const,
};

export type Analysis = ResponseOf<typeof analyzeClips>;
export type AnalyzeInput = BodyOf<typeof analyzeClips>;
export type DraftInput = BodyOf<typeof createDraftClip>;
export type CreatedDraft = ResponseOf<typeof createDraftClip>;

const PAGE = 100;

/** GET /api/crm/content, a page of 100 at a time (newest first); `loadMore` fetches the next. */
export function useContentList() {
  const query = useInfiniteQuery({
    queryKey: clipKeys.content,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      callApi(listCrmContent, { signal, query: { limit: PAGE, offset: pageParam } }),
    getNextPageParam: (last) =>
      last.offset + last.data.length < last.total ? last.offset + last.data.length : undefined,
    // A CRM that is not configured will not be by retrying.
    retry: (failureCount, error) =>
      failureCount < 2 && error instanceof ApiError && error.isTransient && error.status !== 503,
  });
  const records: ContentSummary[] = query.data?.pages.flatMap((page) => page.data) ?? [];
  const total = query.data?.pages.at(-1)?.total ?? 0;
  return { query, records, total };
}

/** POST /clips/analyze: runs on the bridge, offline; a 3 h transcript takes about a second. */
export function useAnalyzeClips() {
  return useMutation({
    mutationFn: (body: AnalyzeInput) => callApi(analyzeClips, { body }),
  });
}

/** POST /clips/create-draft for one suggestion (each card has its own). */
export function useCreateDraft() {
  return useMutation({
    mutationFn: (body: DraftInput) => callApi(createDraftClip, { body }),
  });
}
