import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { createBroadcast, type CreateBroadcastInput } from '../../../shared/api/broadcasts.js';
import type { ResponseOf } from '../../../shared/api/contract.js';
import { getProduction, linkBroadcast, listProductions } from '../../../shared/api/productions.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

export type Thread = ResponseOf<typeof getProduction>;
export type ListQuery = z.input<NonNullable<(typeof listProductions)['query']>>;

const productionKey = (id: string) => [...queryKeys.productions, 'one', id] as const;

/** GET /api/productions: one page of the CRM's productions, the filters as the operator set them. */
export function useProductions(query: ListQuery) {
  return useQuery({
    queryKey: [...queryKeys.productions, 'list', query],
    queryFn: ({ signal }) => callApi(listProductions, { signal, query }),
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/productions/{id}: the whole thread; polled on its page, as broadcasts and posts move on
 * their own (`poll: false` where only its name is wanted).
 */
export function useProduction(id: string, { poll = true }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: productionKey(id),
    queryFn: ({ signal }) => callApi(getProduction, { signal, params: { id } }),
    refetchInterval: poll ? 30_000 : false,
  });
}

export function useLinkBroadcast(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (broadcastRecordId: string) =>
      callApi(linkBroadcast, { params: { id }, body: { broadcastRecordId } }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: productionKey(id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts }),
      ]),
  });
}

/** "Start a broadcast for this production": created at the host, its record linked to the production. */
export function useStartBroadcastFor(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<CreateBroadcastInput, 'contentProductionId'>) =>
      callApi(createBroadcast, { body: { ...body, contentProductionId: id } }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: productionKey(id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts }),
      ]),
  });
}
