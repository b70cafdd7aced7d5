import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { clearWebhookBinding, listWebhookBindings } from '../../../shared/api/webhooks.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** GET /api/webhooks/bindings: each signing webhook id and the route it is bound to (DESIGN §7). */
export function useWebhookBindings() {
  return useQuery({
    queryKey: queryKeys.webhookBindings,
    queryFn: ({ signal }) => callApi(listWebhookBindings, { signal }),
  });
}

/** DELETE /api/webhooks/bindings/:webhookId: the id binds again where it is next seen. */
export function useClearWebhookBinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => callApi(clearWebhookBinding, { params: { webhookId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhookBindings }),
  });
}
