import type { WorkflowStage } from '../../../shared/api/guests.js';

/** DESIGN §6.9: a stage transition CRM catch-up finds more than this after it happened is held. */
export const LATE_TRANSITION_MS = 24 * 3_600_000;

/**
 * Workflows that prepare the guest's appearance (confirmation, scheduling): after the guest's
 * scheduledDate they would arrive too late to mean anything. Recorded and Published follow the
 * appearance by nature, so the scheduled date does not make them late.
 */
const BEFORE_APPEARANCE: ReadonlySet<WorkflowStage> = new Set(['Confirmed', 'Scheduled']);

const utcMinute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Why the workflow of a transition CRM catch-up found is too late to send by itself, or null
 * when it is not. The record's `modifiedAt` bounds when the transition happened (it happened at
 * that time at the latest), so a transition judged late here is late for certain.
 */
export function lateWorkflowReason(input: {
  stage: WorkflowStage;
  modifiedAt: string | null;
  scheduledDate: string | null;
  now: Date;
}): string | null {
  const now = input.now.getTime();
  const modified = input.modifiedAt === null ? Number.NaN : Date.parse(input.modifiedAt);
  if (!Number.isNaN(modified) && now - modified > LATE_TRANSITION_MS) {
    const hours = Math.floor((now - modified) / 3_600_000);
    return `found ${hours} h after the guest moved to ${input.stage} (${utcMinute(modified)} at the latest)`;
  }
  const scheduled = input.scheduledDate === null ? Number.NaN : Date.parse(input.scheduledDate);
  if (BEFORE_APPEARANCE.has(input.stage) && !Number.isNaN(scheduled) && scheduled < now) {
    return `found after the guest's scheduled date (${utcMinute(scheduled)})`;
  }
  return null;
}
