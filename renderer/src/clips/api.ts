import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import {
  analyzeClips,
  createDraftClip,
  draftFromAnalysis,
  listCrmContent,
  nudgeClip,
} from '../../../shared/api/clips.js';
import type { ContentSummary } from '../../../shared/api/clips.js';
import type { BodyOf, ResponseOf, RouteContract } from '../../../shared/api/contract.js';
import { ApiError, callApi, fetchFile } from '../api/transport/client.js';

export const clipKeys = {
  content: ['clips', 'content'] as const,
};

export type Analysis = ResponseOf<typeof analyzeClips>;
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
  return useMutation({
    mutationFn: (body: AnalyzeInput) => callApi(analyzeClips, { body }),
  });
}

/** A suggestion of a stored analysis: its number n, 1 for the first. */
export interface ClipRef {
  analysisId: string;
  n: number;
}

/** POST /clips/create-draft for one suggestion, or from the stored analysis as reviewed. */
export function useCreateDraft(ref: ClipRef | null) {
  return useMutation({
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
  return useMutation({
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
