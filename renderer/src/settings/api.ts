import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '../../../shared/api/contract.js';
import { getSettings, testConnection, updateSettings } from '../../../shared/api/settings.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

// The Overview's first step reads the settings from here: the webhook bindings and the rendering
// setup have modules of their own, so their contracts (and the clips' they import) stay out of
// the first screen's bundle.

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

/** POST /api/settings/test-connection: what a peer answers now (saves nothing; a failing peer is the answer). */
export function useTestConnection() {
  return useMutation({
    mutationFn: (body: BodyOf<typeof testConnection>) => callApi(testConnection, { body }),
  });
}
