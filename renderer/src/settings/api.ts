import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '../../../shared/api/contract.js';
import { getRenderingSetup } from '../../../shared/api/renders.js';
import { getSettings, testConnection, updateSettings } from '../../../shared/api/settings.js';
import { clearWebhookBinding, listWebhookBindings } from '../../../shared/api/webhooks.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** GET /api/settings: values in force (secrets masked), their source, the config file path. */
export function useSettings() {
  return useQuery({
    queryKey: queryKeys.settings,
    queryFn: ({ signal }) => callApi(getSettings, { signal }),
  });
}

/** PUT /api/settings: writes the config file (empty string removes a key); answers restartRequired. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: BodyOf<typeof updateSettings>['values']) =>
      callApi(updateSettings, { body: { values } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.settings }),
  });
}

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

/** GET /api/settings/rendering: which FFmpeg renders clips, and the disk renders use (issue #43). */
export function useRenderingSetup() {
  return useQuery({
    queryKey: [...queryKeys.renders, 'setup'],
    queryFn: ({ signal }) => callApi(getRenderingSetup, { signal }),
  });
}

/** POST /api/settings/test-connection: what a peer answers now (saves nothing; a failing peer is the answer). */
export function useTestConnection() {
  return useMutation({
    mutationFn: (body: BodyOf<typeof testConnection>) => callApi(testConnection, { body }),
  });
}
