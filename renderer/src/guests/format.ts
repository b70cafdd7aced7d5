import type { WorkflowRun } from '../../../shared/api/guests.js';
import type { Tone } from '../components/StatusPill.js';

/** 0.8462 → "84.6 %". */
export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  const percent = Math.round(rate * 1000) / 10;
  return `${percent} %`;
}

export function formatDays(days: number | null): string {
  if (days === null) return '—';
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

export function runTone(status: WorkflowRun['status']): Tone {
  return status === 'started' ? 'ok' : status === 'failed' ? 'bad' : 'info';
}

export function runLabel(run: WorkflowRun): string {
  if (run.status === 'started') return 'started';
  if (run.status === 'failed') return 'failed';
  return run.attempts > 0 && run.message ? `retrying (${run.attempts})` : 'queued';
}

/** Where a stage history row came from, for people. */
export const sourceLabel: Record<string, string> = {
  created: 'created in the CRM',
  webhook: 'CRM webhook',
  dashboard: 'moved here',
  fetched: 'first seen',
  demo: 'demo history',
  'catch-up': 'found on catch-up (the bridge was away)',
};
