import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  checkGuestHold,
  getEmailTemplates,
  getGuestPipeline,
  getGuestTimeline,
  listGuestHolds,
  listGuests,
  listWorkflowRuns,
  moveGuestStage,
  previewEmailTemplate,
  putEmailTemplates,
  runGuestWorkflow,
  sendHeldWorkflow,
  type EmailMoment,
  type EmailTemplate,
  type GuestStage,
  type TemplateSet,
  type TemplateSettings,
  type WorkflowStage,
} from '../../../shared/api/guests.js';
import { sandboxAutomationReceived } from '../../../shared/api/sandbox.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** Query keys of the Guests page; guest activity on /events refreshes everything under `guests` (api/live/event-invalidation.ts). */
export const guestKeys = {
  all: queryKeys.guests,
  list: [...queryKeys.guests, 'list'] as const,
  pipeline: (startDate: string, endDate: string) =>
    [...queryKeys.guests, 'pipeline', startDate, endDate] as const,
  timeline: (id: string) => [...queryKeys.guests, 'timeline', id] as const,
  runs: [...queryKeys.guests, 'runs'] as const,
  holds: [...queryKeys.guests, 'holds'] as const,
  stagePreview: (id: string, moment: EmailMoment) =>
    [...queryKeys.guests, 'stage-preview', id, moment] as const,
  received: [...queryKeys.guests, 'sandbox-received'] as const,
  templates: queryKeys.guestTemplates,
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
    queryKey: [...queryKeys.guests, 'preview', moment, guestId, template, settings] as const,
    queryFn: ({ signal }) =>
      callApi(previewEmailTemplate, { signal, body: { moment, guestId: guestId ?? '', template, settings } }),
    enabled: guestId !== null,
    // While typing, the last preview stays (dimmed); another moment or guest never shows a stale one.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === moment && previousQuery.queryKey[3] === guestId ? previous : undefined,
    retry: false,
  });
}

/** The workflows held because their email would render empty values (the Overview's count). */
export function useGuestHolds() {
  return useQuery(guestHoldsQuery);
}

/** useGuestHolds's query, for starting it before a page renders (overview/prefetch.ts). */
export const guestHoldsQuery = queryOptions({
  queryKey: guestKeys.holds,
  queryFn: ({ signal }) => callApi(listGuestHolds, { signal }),
});

/** The email a move would send, rendered with the saved template and the guest's data now. */
export function useStageEmailPreview(guestId: string, moment: EmailMoment | null) {
  return useQuery({
    queryKey: guestKeys.stagePreview(guestId, moment ?? 'outreach'),
    queryFn: ({ signal }) =>
      callApi(previewEmailTemplate, { signal, body: { moment: moment ?? 'outreach', guestId } }),
    enabled: moment !== null,
    retry: false,
  });
}

export function useCheckHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stage }: { id: string; stage: WorkflowStage }) =>
      callApi(checkGuestHold, { params: { id, stage } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guestKeys.all }),
  });
}

export function useSendHeldAnyway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stage }: { id: string; stage: WorkflowStage }) =>
      callApi(sendHeldWorkflow, { params: { id, stage } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guestKeys.all }),
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
