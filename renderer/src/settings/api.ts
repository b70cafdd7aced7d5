import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '../../../shared/api/contract.js';
import { getSettings, updateSettings } from '../../../shared/api/settings.js';
import { callApi } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';

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
