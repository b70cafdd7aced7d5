import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  getEmailTemplates,
  getGuestPipeline,
  getGuestTimeline,
  listGuests,
  listWorkflowRuns,
  moveGuestStage,
  previewEmailTemplate,
  putEmailTemplates,
  runGuestWorkflow,
  sandboxAutomationReceived,
  type EmailMoment,
  type EmailTemplate,
  type GuestStage,
  type TemplateSet,
  type TemplateSettings,
  type WorkflowStage,
} from '../../../shared/api/guests.js';
import { callApi } from '../api/client.js';
import { useLiveActivity } from '../api/use-live-activity.js';

/** Query keys of the Guests page; everything under `guests` is refreshed by guest activity. */
export const guestKeys = {
  all: ['guests'] as const,
  list: ['guests', 'list'] as const,
  pipeline: (startDate: string, endDate: string) => ['guests', 'pipeline', startDate, endDate] as const,
  timeline: (id: string) => ['guests', 'timeline', id] as const,
  runs: ['guests', 'runs'] as const,
  received: ['guests', 'sandbox-received'] as const,
  templates: ['guest-templates'] as const,
};

export function useGuests() {
  return useQuery({ queryKey: guestKeys.list, queryFn: ({ signal }) => callApi(listGuests, { signal }) });
}

export function usePipeline(startDate: string, endDate: string) {
  return useQuery({
    queryKey: guestKeys.pipeline(startDate, endDate),
    queryFn: ({ signal }) =>
      callApi(getGuestPipeline, {
        signal,
        query: { ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useGuestTimeline(id: string | null) {
  return useQuery({
    queryKey: guestKeys.timeline(id ?? ''),
    queryFn: ({ signal }) => callApi(getGuestTimeline, { signal, params: { id: id ?? '' } }),
    enabled: id !== null,
  });
}

export function useWorkflowRuns() {
  return useQuery({
    queryKey: guestKeys.runs,
    queryFn: ({ signal }) => callApi(listWorkflowRuns, { signal, query: { limit: 8 } }),
  });
}

/** What the simulated n8n received (sandbox mode only: `enabled` from /health's sandbox flag). */
export function useSandboxReceived(enabled: boolean) {
  return useQuery({
    queryKey: guestKeys.received,
    queryFn: ({ signal }) => callApi(sandboxAutomationReceived, { signal }),
    enabled,
  });
}

export function useTemplates() {
  return useQuery({
    queryKey: guestKeys.templates,
    queryFn: ({ signal }) => callApi(getEmailTemplates, { signal }),
  });
}

export function useSaveTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { templates?: Partial<TemplateSet>; settings?: Partial<TemplateSettings> }) =>
      callApi(putEmailTemplates, { body }),
    onSuccess: (data) => queryClient.setQueryData(guestKeys.templates, data),
  });
}

/** A rendered template for a guest; unsaved text and values are previewed as typed (debounce upstream). */
export function usePreview(input: {
  moment: EmailMoment;
  guestId: string | null;
  template: EmailTemplate;
  settings: TemplateSettings;
}) {
  const { moment, guestId, template, settings } = input;
  return useQuery({
    queryKey: ['guests', 'preview', moment, guestId, template, settings] as const,
    queryFn: ({ signal }) =>
      callApi(previewEmailTemplate, { signal, body: { moment, guestId: guestId ?? '', template, settings } }),
    enabled: guestId !== null,
    // While typing, the last preview stays (dimmed); another moment or guest never shows a stale one.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === moment && previousQuery.queryKey[3] === guestId ? previous : undefined,
    retry: false,
  });
}

export function useMoveStage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stage }: { id: string; stage: GuestStage }) =>
      callApi(moveGuestStage, { params: { id }, body: { stage } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guestKeys.all }),
  });
}

export function useRunAgain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stage }: { id: string; stage: WorkflowStage }) =>
      callApi(runGuestWorkflow, { params: { id, stage } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guestKeys.all }),
  });
}

const REFRESHING_TYPES = /^(guests\.|webhook\.|clips\.fit|job\.(retry|failed))/;

/** Guest activity on /events (stage changes, workflow outcomes, webhooks) refreshes the page's data. */
export function useGuestsLiveRefresh(): void {
  const queryClient = useQueryClient();
  const latest = useLiveActivity().events[0];
  const relevant = latest !== undefined && REFRESHING_TYPES.test(latest.type);
  const latestId = latest?.id;
  useEffect(() => {
    if (!relevant) return;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: guestKeys.all }), 250);
    return () => clearTimeout(timer);
  }, [latestId, relevant, queryClient]);
}
