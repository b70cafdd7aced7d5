import type { SandboxCrm } from '../../main/sandbox/index.js';
import { callBridge } from './bridge.js';
import { eventually } from './wait.js';

/*
 * Positive signals to wait for before asserting that something did NOT happen: they prove the
 * system got far enough for the negative check to mean something, without a fixed sleep.
 */

/**
 * Flushes the sandbox CRM's webhooks until a flush sends nothing more: every gathered batch,
 * waiting retry and echo of the bridge's write-backs has been delivered and answered.
 * (A batch answered with a retried status is sent again each round, until EspoCRM's sender gives up.)
 */
export async function webhooksQuiet(crm: SandboxCrm, timeoutMs = 20_000): Promise<void> {
  await eventually(async () => {
    const before = crm.deliveries().length;
    await crm.flushWebhooks();
    return crm.deliveries().length === before;
  }, timeoutMs);
}

/** Waits until no job of `kind` is pending or running in the bridge at `baseUrl` (its queue has done that work). */
export async function jobsIdle(baseUrl: string, kind: string, timeoutMs?: number): Promise<void> {
  await eventually(async () => {
    const jobs = await callBridge(baseUrl, 'GET', `/api/jobs?kind=${encodeURIComponent(kind)}&limit=500`);
    if (jobs.status !== 200) return false;
    return (jobs.body.data as { status: string }[]).every(
      (job) => job.status === 'done' || job.status === 'failed',
    );
  }, timeoutMs);
}
