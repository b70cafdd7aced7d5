import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  analyzeClips,
  createDraftClip,
  draftFromAnalysis,
  getClipAnalysis,
  listClipAnalyses,
  listCrmContent,
  nudgeClip,
} from '../../../shared/api/clips.js';
import type { ContentSummary } from '../../../shared/api/clips.js';
import type { BodyOf, ResponseOf, RouteContract } from '../../../shared/api/contract.js';
import { ApiError, callApi, fetchFile } from '../api/transport/client.js';

export const clipKeys = {
  content: ['clips', 'content'] as const,
  analyses: ['clips', 'analyses'] as const,
};

export type Analysis = ResponseOf<typeof analyzeClips>;
/** A stored analysis as it was left: each suggestion's review and draft beside it. */
export type AnalysisAsLeft = ResponseOf<typeof getClipAnalysis>;
export type Kept = AnalysisAsLeft['kept'][number];
export type AnalyzeInput = BodyOf<typeof analyzeClips>;
export type DraftInput = BodyOf<typeof createDraftClip>;

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AnalyzeInput) => callApi(analyzeClips, { body }),
    onSuccess: (answer) => {
      // Opened at once as left (nothing reviewed yet); the list gains it.
      const { success, ...analysis } = answer;
      queryClient.setQueryData([...clipKeys.analyses, answer.analysisId], {
        success,
        ...analysis,
        kept: analysis.suggestedClips.map((_clip, i) => ({ n: i + 1, reviewed: null, draft: null })),
      } satisfies AnalysisAsLeft);
      void queryClient.invalidateQueries({ queryKey: clipKeys.analyses, exact: true });
    },
  });
}

/** GET /clips/analyses: the recent analyses, newest first, with their drafts. */
export function useRecentAnalyses() {
  return useQuery({
    queryKey: clipKeys.analyses,
    queryFn: ({ signal }) => callApi(listClipAnalyses, { signal, query: { limit: 10 } }),
  });
}

/** GET /clips/analyses/{id}: one as it was left (reviews, drafts); none asked while `id` is null. */
export function useAnalysisAsLeft(id: string | null) {
  return useQuery({
    queryKey: [...clipKeys.analyses, id],
    queryFn: ({ signal }) => callApi(getClipAnalysis, { signal, params: { analysisId: id! } }),
    enabled: id !== null,
    // A 404 (expired, unknown) will not heal by asking again.
    retry: (failureCount, error) => failureCount < 2 && error instanceof ApiError && error.isTransient,
  });
}

/** A suggestion of a stored analysis: its number n, 1 for the first. */
export interface ClipRef {
  analysisId: string;
  n: number;
}

/** POST /clips/create-draft for one suggestion, or from the stored analysis as reviewed. */
export function useCreateDraft(ref: ClipRef | null) {
  const queryClient = useQueryClient();
  return useMutation({
    // The analyses as left (theirs and the list's drafts) now hold this draft.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clipKeys.analyses }),
    mutationFn: (body: DraftInput) =>
      ref
        ? callApi(draftFromAnalysis, {
            params: { analysisId: ref.analysisId, n: ref.n },
            body: { targetPlatforms: body.targetPlatforms },
          })
        : callApi(createDraftClip, { body }),
  });
}

/** POST …/nudge: moves a suggestion's in or out by whole sentences. */
export function useNudgeClip(ref: ClipRef) {
  const queryClient = useQueryClient();
  return useMutation({
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...clipKeys.analyses, ref.analysisId] }),
    mutationFn: (body: { edge: 'in' | 'out'; sentences: number }) =>
      callApi(nudgeClip, { params: { analysisId: ref.analysisId, n: ref.n }, body }),
  });
}

/** Fetches an export with the key and hands it to the browser as a download. */
export async function saveExport(
  contract: RouteContract,
  params: Record<string, string | number>,
  query?: Record<string, string>,
): Promise<void> {
  const { blob, fileName } = await fetchFile(contract, { params, ...(query ? { query } : {}) });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link; the blob is no longer needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
